import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyState, type EmulatorState, type FileEntry, type JobRecord } from './types';

/** The journal is folded into the whole file once it is larger than that file, and never below this. */
const MIN_JOURNAL_BYTES = 1024 * 1024;

/** One journal line: the jobs and result files changed (null: removed), and the small rest whole. */
interface JournalLine {
  g: number;
  jobs: Record<string, JobRecord>;
  files: Record<string, FileEntry | null>;
  rest: Omit<EmulatorState, 'jobs' | 'files'>;
}

/**
 * The sandbox's records, kept in memory and written to `<dataDir>/state.json` with a journal beside it
 * (`state.journal`). Rewriting every job of a 10,000-row campaign after each change took the one thread
 * that answers requests for hundreds of milliseconds, and requests arriving meanwhile were all counted
 * at once against the rate limit. So a change appends the jobs and files it touched (and the few small
 * records whole) as one journal line, and the whole file is written again only once the journal has
 * outgrown it, and at close. Each line names the whole file's generation it follows: lines a crash left
 * behind a newer whole file are ignored, and a last line cut short by a crash is skipped. A whole file
 * that cannot be read is moved aside with its journal.
 */
export class StateStore {
  readonly state: EmulatorState;
  private readonly file: string;
  private readonly journal: string;
  private pending = false;
  private closed = false;
  private generation = 0;
  private wholeBytes = 0;
  private journalBytes = 0;
  private readonly changedJobs = new Set<string>();
  private readonly changedFiles = new Set<string>();

  constructor(
    readonly dataDir: string,
    private readonly log: (line: string) => void,
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.file = join(dataDir, 'state.json');
    this.journal = join(dataDir, 'state.journal');
    this.state = this.load();
  }

  private load(): EmulatorState {
    try {
      const records = readSandboxRecords(this.dataDir, (reason) => this.log(`journal line skipped: ${reason}`));
      this.generation = records.generation;
      this.wholeBytes = records.wholeBytes;
      this.journalBytes = records.journalBytes;
      return records.state;
    } catch (error) {
      const stamp = Date.now();
      const aside = `${this.file}.corrupt-${stamp}`;
      renameSync(this.file, aside);
      if (existsSync(this.journal)) renameSync(this.journal, `${this.journal}.corrupt-${stamp}`);
      this.log(`state file unreadable (${(error as Error).message}); moved aside to ${aside}`);
      return emptyState();
    }
  }

  /**
   * Schedules one write for every change made in this turn of the event loop. `job`: the job that
   * changed (its record is journalled); changes to the small records need no argument.
   */
  changed(job?: JobRecord): void {
    if (job) this.changedJobs.add(job._id);
    if (this.pending || this.closed) return;
    this.pending = true;
    setImmediate(() => this.flush());
  }

  /** A result file was recorded or removed. */
  fileChanged(name: string): void {
    this.changedFiles.add(name);
    this.changed();
  }

  /** Writes pending changes; a failed write is logged (the next change tries again), never thrown. */
  flush(): void {
    if (!this.pending) return;
    this.pending = false;
    try {
      if (this.journalBytes > Math.max(this.wholeBytes, MIN_JOURNAL_BYTES)) this.writeWhole();
      else this.appendChanges();
    } catch (error) {
      this.log(`could not save sandbox records: ${(error as Error).message}`);
    }
  }

  private appendChanges(): void {
    const { jobs, files, ...rest } = this.state;
    const line: JournalLine = { g: this.generation, jobs: {}, files: {}, rest };
    for (const id of this.changedJobs) if (jobs[id]) line.jobs[id] = jobs[id];
    for (const name of this.changedFiles) line.files[name] = files[name] ?? null;
    const text = `${JSON.stringify(line)}\n`;
    appendFileSync(this.journal, text);
    this.changedJobs.clear();
    this.changedFiles.clear();
    this.journalBytes += text.length;
  }

  private writeWhole(): void {
    const generation = this.generation + 1;
    const text = JSON.stringify({ ...this.state, generation });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, this.file);
    // From here on the journal's lines are of an older generation: ignored if emptying it is lost.
    this.generation = generation;
    this.changedJobs.clear();
    this.changedFiles.clear();
    writeFileSync(this.journal, '');
    this.wholeBytes = text.length;
    this.journalBytes = 0;
  }

  /** Final write of everything, as one whole file; later changes (late callbacks) are kept in memory only. */
  close(): void {
    this.pending = false;
    try {
      this.writeWhole();
    } catch (error) {
      this.log(`could not save sandbox records: ${(error as Error).message}`);
    }
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

/**
 * The sandbox's records in a data folder as they are now: the whole file, then its journal's lines of
 * the same generation. Also how tests and benches read what a sandbox made. Throws when the whole file
 * cannot be read; an unreadable journal line is skipped and reported.
 */
export function readSandboxRecords(
  dataDir: string,
  skipped: (reason: string) => void = () => undefined,
): { state: EmulatorState; generation: number; wholeBytes: number; journalBytes: number } {
  const file = join(dataDir, 'state.json');
  const journalPath = join(dataDir, 'state.journal');
  // The journal first: its owner may fold it into the whole file meanwhile, which then holds its lines.
  const journal = existsSync(journalPath) ? readFileSync(journalPath, 'utf8') : '';
  const whole = existsSync(file) ? readFileSync(file, 'utf8') : null;
  let state = emptyState();
  let generation = 0;
  if (whole !== null) {
    const parsed = JSON.parse(whole) as EmulatorState & { generation?: number };
    if (parsed.version !== 1 || typeof parsed.jobs !== 'object') throw new Error('unknown state version');
    const { generation: written = 0, ...records } = parsed;
    state = { ...emptyState(), ...records };
    generation = written;
  }
  const lines = journal.split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    let line: JournalLine;
    try {
      line = JSON.parse(text) as JournalLine;
    } catch (error) {
      skipped(`${index >= lines.length - 2 ? 'the last line, cut short' : `line ${index + 1}`}: ${String(error)}`);
      return;
    }
    if (line.g !== generation) return;
    Object.assign(state.jobs, line.jobs);
    for (const [name, entry] of Object.entries(line.files)) {
      if (entry) state.files[name] = entry;
      else delete state.files[name];
    }
    Object.assign(state, line.rest);
  });
  return { state, generation, wholeBytes: whole?.length ?? 0, journalBytes: journal.length };
}
