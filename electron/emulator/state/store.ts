import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyState, type EmulatorState } from './types';

/**
 * The sandbox's records, kept in memory and written to `<dataDir>/state.json` (write to a temp file,
 * then rename, so a crash never leaves half a file). A file that cannot be read is moved aside.
 */
export class StateStore {
  readonly state: EmulatorState;
  private readonly file: string;
  private pending = false;
  private closed = false;
  /** How long the last write took: the file holds every job, so it grows with a long campaign. */
  private lastWriteMs = 0;

  constructor(
    readonly dataDir: string,
    private readonly log: (line: string) => void,
    /** Times the writes (tests make one slow). */
    private readonly clock: () => number = () => performance.now(),
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.file = join(dataDir, 'state.json');
    this.state = this.load();
  }

  private load(): EmulatorState {
    if (!existsSync(this.file)) return emptyState();
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as EmulatorState;
      if (parsed.version !== 1 || typeof parsed.jobs !== 'object') throw new Error('unknown state version');
      return { ...emptyState(), ...parsed };
    } catch (error) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      renameSync(this.file, aside);
      this.log(`state file unreadable (${(error as Error).message}); moved aside to ${aside}`);
      return emptyState();
    }
  }

  /**
   * Schedules one write for all changes made until it runs: at once after a quick write, else after
   * four times as long as the last one took (at most 2 s), so that rewriting the records of a
   * 10,000-row campaign does not take the thread that answers requests.
   */
  changed(): void {
    if (this.pending || this.closed) return;
    this.pending = true;
    const wait = Math.min(4 * this.lastWriteMs, 2_000);
    if (wait < 4) setImmediate(() => this.flush());
    else setTimeout(() => this.flush(), wait);
  }

  /** Writes pending changes; a failed write is logged (the next change tries again), never thrown. */
  flush(): void {
    if (!this.pending) return;
    this.pending = false;
    const tmp = `${this.file}.tmp`;
    const started = this.clock();
    try {
      writeFileSync(tmp, JSON.stringify(this.state));
      renameSync(tmp, this.file);
    } catch (error) {
      this.log(`could not save sandbox records: ${(error as Error).message}`);
    }
    this.lastWriteMs = this.clock() - started;
  }

  /** Final write; later changes (late callbacks) are kept in memory only. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  /** A short, unique, sortable id (24 hex characters, like the service's ids). */
  newId(now: number): string {
    this.state.counter += 1;
    const time = Math.floor(now / 1000)
      .toString(16)
      .padStart(8, '0');
    return `${time}${this.state.counter.toString(16).padStart(16, '0')}`.slice(0, 24);
  }
}
