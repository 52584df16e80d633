import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { foldInSteps } from './state-fold';
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
 * records whole) as one journal line, and once the journal has outgrown the whole file the records are
 * folded into a new whole file a few hundred at a time (state-fold.ts), the lines of that while going to
 * a next journal (`state.journal.next`) that replaces the journal when the fold is done. Each line names
 * the whole file's generation it follows: a reader applies, after the whole file, the lines of its
 * generation or later, the journal's before the next one's; lines a crash left behind a newer whole
 * file are ignored, and a last line cut short by a crash is skipped. A whole file that cannot be read is
 * moved aside with its journals. At close everything is written as one whole file.
 */
export class StateStore {
  readonly state: EmulatorState;
  private readonly file: string;
  private readonly journal: string;
  private readonly nextJournal: string;
  private pending = false;
  /** The generation being folded into a whole file: lines go to the next journal, stamped with it. */
  private folding: number | null = null;
  /** The fold under way, if any; it never rejects. */
  private foldDone: Promise<void> | null = null;
  private nextBytes = 0;
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
    this.nextJournal = `${this.journal}.next`;
    this.state = this.load();
    // A fold a crash cut short: its lines are read; one whole file now puts both journals behind it.
    if (existsSync(this.nextJournal)) this.close(false);
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
      for (const journal of [this.journal, this.nextJournal])
        if (existsSync(journal)) renameSync(journal, `${journal}.corrupt-${stamp}`);
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
      const outgrown = Math.max(this.wholeBytes, MIN_JOURNAL_BYTES);
      if (!this.foldDone && (this.folding === null ? this.journalBytes : this.nextBytes) > outgrown) this.fold();
      this.appendChanges();
    } catch (error) {
      this.log(`could not save sandbox records: ${(error as Error).message}`);
    }
  }

  private appendChanges(): void {
    const { jobs, files, ...rest } = this.state;
    const line: JournalLine = { g: this.folding ?? this.generation, jobs: {}, files: {}, rest };
    for (const id of this.changedJobs) if (jobs[id]) line.jobs[id] = jobs[id];
    for (const name of this.changedFiles) line.files[name] = files[name] ?? null;
    const text = `${JSON.stringify(line)}\n`;
    appendFileSync(this.folding === null ? this.journal : this.nextJournal, text);
    this.changedJobs.clear();
    this.changedFiles.clear();
    if (this.folding === null) this.journalBytes += text.length;
    else this.nextBytes += text.length;
  }

  /**
   * Folds the records into a new whole file in steps; lines written meanwhile go to the next journal,
   * which becomes the journal once the new file is in place. A failed fold is logged and its lines stay
   * in the next journal, still stamped with the generation the next try writes.
   */
  private fold(): void {
    const generation = (this.folding ??= this.generation + 1);
    this.foldDone = foldInSteps(this.state, generation, this.file, () => !this.closed)
      .then((bytes) => {
        if (bytes === null) return;
        // The new whole file holds every line of the journal: the next journal takes its place.
        if (existsSync(this.nextJournal)) renameSync(this.nextJournal, this.journal);
        else writeFileSync(this.journal, '');
        this.generation = generation;
        this.folding = null;
        this.wholeBytes = bytes;
        this.journalBytes = this.nextBytes;
        this.nextBytes = 0;
      })
      .catch((error: Error) => this.log(`could not fold sandbox records: ${error.message}`))
      .finally(() => {
        this.foldDone = null;
      });
  }

  /** Resolves once no fold is under way (one abandoned at close has taken its file away). */
  async idle(): Promise<void> {
    while (this.foldDone) await this.foldDone;
  }

  private writeWhole(): void {
    const generation = (this.folding ?? this.generation) + 1;
    const text = JSON.stringify({ ...this.state, generation });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, this.file);
    // From here on the journal's lines are of an older generation: ignored if emptying it is lost.
    this.generation = generation;
    this.folding = null;
    this.changedJobs.clear();
    this.changedFiles.clear();
    writeFileSync(this.journal, '');
    rmSync(this.nextJournal, { force: true });
    this.wholeBytes = text.length;
    this.journalBytes = 0;
    this.nextBytes = 0;
  }

  /**
   * Final write of everything, as one whole file (a fold under way is abandoned); later changes (late
   * callbacks) are kept in memory only. `final` false: the same write at open, and the store goes on.
   */
  close(final = true): void {
    this.pending = false;
    this.closed = final;
    try {
      this.writeWhole();
    } catch (error) {
      this.log(`could not save sandbox records: ${(error as Error).message}`);
    }
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
 * The sandbox's records in a data folder as they are now: the whole file, then the lines of its
 * generation or later from its journal and its next journal (a fold under way). Also how tests and
 * benches read what a sandbox made. Throws when the whole file cannot be read; an unreadable journal
 * line is skipped and reported.
 */
export function readSandboxRecords(
  dataDir: string,
  skipped: (reason: string) => void = () => undefined,
): { state: EmulatorState; generation: number; wholeBytes: number; journalBytes: number } {
  const file = join(dataDir, 'state.json');
  const journalPath = join(dataDir, 'state.journal');
  // Newest last: the owner may end a fold meanwhile (the whole file first, then the next journal
  // becomes the journal), and what is read later holds what was read before.
  const next = readLines(`${journalPath}.next`, skipped);
  const journal = readLines(journalPath, skipped);
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
  // A generation's lines in the order written: the next journal read first is the older copy of lines
  // the journal holds if the fold ended between the two reads.
  const lines = [...next.lines, ...journal.lines].filter((l) => l.g >= generation).sort((a, b) => a.g - b.g);
  for (const line of lines) {
    Object.assign(state.jobs, line.jobs);
    for (const [name, entry] of Object.entries(line.files)) {
      if (entry) state.files[name] = entry;
      else delete state.files[name];
    }
    Object.assign(state, line.rest);
  }
  return { state, generation, wholeBytes: whole?.length ?? 0, journalBytes: journal.bytes };
}

function readLines(path: string, skipped: (reason: string) => void): { lines: JournalLine[]; bytes: number } {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const parts = text.split('\n');
  const lines: JournalLine[] = [];
  parts.forEach((part, index) => {
    if (part.trim() === '') return;
    try {
      lines.push(JSON.parse(part) as JournalLine);
    } catch (error) {
      skipped(`${index >= parts.length - 2 ? 'the last line, cut short' : `line ${index + 1}`}: ${String(error)}`);
    }
  });
  return { lines, bytes: text.length };
}
