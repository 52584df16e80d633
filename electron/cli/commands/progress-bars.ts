import type { DownloadView } from '../../common/bridge/downloads';
import { progressText, type RunProgress } from '../../common/jobs/run-progress';
import { pauseAfter } from '../../common/campaign/pause-after';

const WIDTH = 24;

function bar(fraction: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}]`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/** One line per running download and a total, redrawn in place on a terminal (stderr). */
export class ProgressBars {
  private lines = 0;

  constructor(private readonly write: (text: string) => void) {}

  draw(entries: readonly DownloadView[]): void {
    const running = entries.filter((d) => d.state === 'downloading');
    const saved = entries.filter((d) => d.state === 'saved').length;
    const bytes = entries.reduce((sum, d) => sum + d.bytes, 0);
    const total = entries.reduce((sum, d) => sum + (d.totalBytes ?? d.bytes), 0);
    const rows = running.slice(0, 5).map((d) => {
      const fraction = d.totalBytes ? d.bytes / d.totalBytes : 0;
      const speed = d.bytesPerSecond ? ` ${mb(d.bytesPerSecond)}/s` : '';
      const left = d.secondsLeft !== null ? ` ${Math.ceil(d.secondsLeft)} s left` : '';
      return `${bar(fraction)} ${String(Math.floor(fraction * 100)).padStart(3)}% ${d.relativeName.length > 40 ? `…${d.relativeName.slice(-39)}` : d.relativeName}${speed}${left}`;
    });
    rows.push(`${bar(total ? bytes / total : 0)} ${saved}/${entries.length} saved, ${mb(bytes)} of ${mb(total)}`);
    // Up to the first line drawn last time, then each line cleared and rewritten.
    const up = this.lines > 0 ? `\x1b[${this.lines}F` : '';
    this.write(`${up}${rows.map((r) => `\x1b[2K${r}`).join('\n')}\n`);
    this.lines = rows.length;
  }

  end(): void {
    this.lines = 0;
  }
}

/**
 * A run of rows (a campaign, a batch) on one line: the bar of done rows (failed ones do not fill it), then
 * the same figures as the studio's page: done, failed and waiting apart, the pace, time left, projected cost.
 */
export function runLine(progress: RunProgress, running: boolean): string {
  return `${bar(progress.percent / 100)} ${String(progress.percent).padStart(3)}% ${progressText(progress, running)}`;
}

/**
 * A run's line kept up to date on a terminal while the run goes on: each change asks for the run's
 * figures again (at most once every `everyMs`, so thousands of row changes do not read the run thousands of
 * times) and redraws the line in place. A read that took long waits longer (pauseAfter): the status of a
 * 100,000-row campaign took half a second to sum, a quarter of the studio's thread at one read every 2 s.
 */
export class LiveRunLine {
  private drawn = false;
  private lastAt = -Infinity;
  /** How long the last read took (by `now`). */
  private lastReadMs = 0;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly write: (text: string) => void,
    private readonly read: () => Promise<{ progress: RunProgress; running: boolean }>,
    private readonly now: () => number = Date.now,
    private readonly everyMs = 2000,
  ) {}

  /** Something changed: redraw unless the line was drawn moments ago or is being read now. */
  changed(): void {
    if (this.reading || this.now() - this.lastAt < Math.max(this.everyMs, pauseAfter(this.lastReadMs))) return;
    this.reading = this.draw().finally(() => (this.reading = null));
  }

  /** The run ended: the last figures, drawn once more and left on the terminal. */
  async end(): Promise<void> {
    await this.reading;
    await this.draw();
  }

  private async draw(): Promise<void> {
    this.lastAt = this.now();
    const { progress, running } = await this.read().catch(() => ({ progress: null, running: false }));
    this.lastReadMs = this.now() - this.lastAt;
    if (!progress) return;
    // `write` ends its line (as a command's io.err does): the next draw goes up one line and clears it.
    this.write(`${this.drawn ? '\x1b[1F\x1b[2K' : ''}${runLine(progress, running)}`);
    this.drawn = true;
  }
}
