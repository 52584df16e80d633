import type { DownloadView } from '../../common/bridge/downloads';

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
