import { resolve } from 'node:path';
import type { DownloadEntry } from '../../common/bridge/downloads';
import { FINISHED, freeName, heldNames, nameKey, newEntry, takenOnDisk, type EnqueueRequest } from './queue-names';
import type { QueueBacklog } from './queue-records';

/** What the window gives the entries it takes in to: the manager's map, its record and its places. */
export interface Intake {
  held: Map<string, DownloadEntry>;
  save(entries: readonly DownloadEntry[]): Promise<void>;
  start(entry: DownloadEntry): void;
  fail(entry: DownloadEntry, error: unknown): void;
}

/** How many downloads of the backlog the manager holds queued at once, beside those it transfers. */
export const WINDOW = 200;
/** Rows a statement pauses or forgets before the thread is given back (see yieldTurn). */
const ROWS_A_STEP = 1_000;

/** Gives the event loop a turn: a long walk over the record lets the host answer meanwhile. */
export const yieldTurn = (): Promise<void> => new Promise((done) => setImmediate(done));

/**
 * The manager's view of its backlog (QueueBacklog): how many wait there, the few taken in from it (the
 * window), and the moves of all of them at once (pause, cancel) a few thousand rows at a time.
 * A selection of a million jobs is a million rows here and at most WINDOW entries in memory.
 */
export class QueueWindow {
  /** Waiting in the record, not in memory: queued, and paused by "Pause all". */
  queued: number;
  paused: number;
  /** Taken in from the backlog and not yet transferred: the window the manager holds queued. */
  private readonly taken = new Set<string>();
  /** The last row taken in: the next are read after it. */
  private cursor = 0;
  /** Bumped by cancelAll and pauseAll: a selection being queued asks it what to do with its next rows. */
  private cancels = 0;
  private pauses = 0;
  /** One naming at a time: two names chosen at once could both find the same one free. */
  private names: Promise<unknown> = Promise.resolve();
  /** A pause or cancel of the whole backlog is under way: nothing is taken in from it meanwhile. */
  private moving = 0;

  private refilling: Promise<void> | null = null;
  /** How many the intake under way is naming: out of the backlog's count, not in the manager's hands yet. */
  private naming = 0;
  private stopped = false;

  constructor(
    private readonly backlog: QueueBacklog,
    /** Whether this process takes entries in: a command line leaves the studio's to the studio (resumeQueued). */
    private drawing: boolean,
    private readonly to: Intake,
  ) {
    ({ queued: this.queued, paused: this.paused } = backlog.counts());
  }

  /** The marks a selection's queueing compares with later (see since). */
  mark(): { cancels: number; pauses: number } {
    return { cancels: this.cancels, pauses: this.pauses };
  }

  /** What became of the queue since `mark`: cancelled (stop queueing), paused (queue the rest paused). */
  since(mark: { cancels: number; pauses: number }): 'cancelled' | 'paused' | null {
    if (this.cancels !== mark.cancels) return 'cancelled';
    return this.pauses !== mark.pauses ? 'paused' : null;
  }

  /** Records new downloads in the backlog (one transaction, see QueueBacklog.add): nothing of them is held after. */
  add(requests: readonly EnqueueRequest[], at: number, paused: boolean, flushed = true): DownloadEntry[] {
    const entries = requests.map((request) => ({
      ...newEntry(request, resolve(request.folder), request.relativeName, at),
      state: paused ? ('paused' as const) : ('queued' as const),
      unnamed: true,
    }));
    this.backlog.add(entries, { flushed });
    // The backlog it added is this process's to take in, whatever it does with the studio's.
    this.drawing = !this.stopped;
    if (paused) this.paused += entries.length;
    else this.queued += entries.length;
    return entries;
  }

  /**
   * The next entries to hold so the window is full again (none while it is more than half full), in
   * the order queued. `held` says whether the manager has one already (taken in by its id).
   */
  draw(held: (id: string) => DownloadEntry | undefined): DownloadEntry[] {
    for (const id of this.taken) {
      const entry = held(id);
      if (!entry || (entry.state !== 'queued' && entry.state !== 'downloading')) this.taken.delete(id);
    }
    if (this.queued === 0 || this.moving > 0 || this.taken.size > WINDOW / 2) return [];
    const wanted = WINDOW - this.taken.size;
    let rows = this.backlog.next(this.cursor, wanted);
    // Rows queued again behind the cursor (after a pause): read from the first once the end is reached.
    if (rows.length === 0 && this.cursor > 0) {
      this.cursor = 0;
      rows = this.backlog.next(0, wanted);
    }
    if (rows.length === 0) this.queued = 0;
    const out: DownloadEntry[] = [];
    for (const { row, entry } of rows) {
      this.cursor = row;
      if (held(entry.id)) continue;
      this.taken.add(entry.id);
      this.queued = Math.max(0, this.queued - 1);
      out.push(entry);
    }
    return out;
  }

  /**
   * Takes the next entries in (draw), names them, records the names (before any byte is written under
   * one) and starts them, then looks again; one intake at a time. What cannot be named fails, saying why.
   */
  refill(): void {
    if (!this.drawing || this.refilling) return;
    const entries = this.to.held;
    const drawn = this.draw((id) => entries.get(id));
    if (drawn.length === 0) return;
    this.naming = drawn.length;
    this.refilling = this.name(drawn, () => entries.values())
      .then(async () => {
        for (const entry of drawn) entries.set(entry.id, entry);
        this.naming = 0;
        await this.to.save(drawn);
        for (const entry of drawn) this.to.start(entry);
      })
      .catch((error: unknown) => {
        for (const entry of drawn) {
          entries.set(entry.id, entry);
          this.to.fail(entry, error);
        }
      })
      .finally(() => {
        this.naming = 0;
        this.refilling = null;
        this.refill();
      });
  }

  /** Files queued and not held: those in the backlog, and those being taken in (named) now. */
  get waiting(): number {
    return this.queued + this.naming;
  }

  /** Takes nothing more in (the manager is disposed). */
  stop(): void {
    this.drawing = false;
    this.stopped = true;
  }

  /** Waits for the intake under way; answers whether more may come in (the backlog is not empty). */
  async refilled(): Promise<boolean> {
    this.refill();
    if (!this.refilling) return false;
    await this.refilling;
    return true;
  }

  /** The entries of these jobs waiting in the backlog (a selection asked again finds them). */
  ofJobs(jobIds: readonly string[]): DownloadEntry[] {
    return this.backlog.ofJobs(jobIds);
  }

  /** Queues again one entry a "Pause all" left waiting (asked for again): it keeps its place in line. */
  requeue(entry: DownloadEntry, at: number): DownloadEntry {
    if (entry.state !== 'paused' || !this.backlog.requeue(entry.id, at)) return entry;
    this.paused = Math.max(0, this.paused - 1);
    this.queued += 1;
    this.cursor = 0;
    return { ...entry, state: 'queued', updatedAt: at };
  }

  /** One entry of the backlog asked for by its id (a row the page shows): held from now on, or null. */
  takeOne(id: string): DownloadEntry | null {
    const entry = this.backlog.get(id);
    if (!entry) return null;
    if (entry.state === 'paused') this.paused = Math.max(0, this.paused - 1);
    else this.queued = Math.max(0, this.queued - 1);
    return entry;
  }

  /**
   * Chooses the free name of each entry (see freeName) against the names the manager's downloads in
   * flight hold; the name asked for was kept as `relativeName` until now.
   */
  name(entries: readonly DownloadEntry[], inMemory: () => Iterable<DownloadEntry>): Promise<void> {
    const run = this.names.then(async () => {
      const held = heldNames([...inMemory()].filter((e) => !e.unnamed && !FINISHED.has(e.state)));
      const asked = (entry: DownloadEntry) => entry.requestedName ?? entry.relativeName;
      // The names asked for are looked up on disk all at once (one by one, a busy host answered a window
      // of them in minutes); only one found taken then looks further, number by number.
      const onDisk = await Promise.all(entries.map((e) => (e.unnamed ? takenOnDisk(e.folder, asked(e)) : false)));
      for (const [index, entry] of entries.entries()) {
        if (!entry.unnamed) continue;
        const free = !onDisk[index] && !held.has(nameKey(entry.folder, asked(entry)));
        const name = free ? asked(entry) : await freeName(held, entry.folder, asked(entry));
        held.add(nameKey(entry.folder, name));
        Object.assign(entry, { relativeName: name });
        delete entry.unnamed;
      }
    });
    this.names = run.catch(() => undefined);
    return run;
  }

  /** Pauses every entry of the backlog; answers how many. */
  pauseAll(at: number): Promise<number> {
    return this.steps(() => this.backlog.move(true, at, ROWS_A_STEP));
  }

  /** Queues again what "Pause all" paused in the backlog; answers how many. */
  resumeAll(at: number): Promise<number> {
    return this.steps(() => this.backlog.move(false, at, ROWS_A_STEP));
  }

  /** Forgets the whole backlog (it never held a file or a name); answers how many. */
  cancelAll(): Promise<number> {
    return this.steps(() => this.backlog.drop(ROWS_A_STEP));
  }

  /**
   * Runs `work` with nothing taken in meanwhile, after the intake under way has put its entries in the
   * manager's hands: a pause or cancel of all then finds each entry either held or in the backlog.
   */
  async quiet<T>(what: 'pause' | 'cancel', work: () => Promise<T>): Promise<T> {
    // Told at once: a selection's page recorded from now on is recorded paused, or not at all.
    if (what === 'pause') this.pauses += 1;
    else this.cancels += 1;
    this.moving += 1;
    try {
      await this.refilling;
      return await work();
    } finally {
      this.moving -= 1;
    }
  }

  /** Runs one statement of a move until it moves nothing, giving the thread back between them. */
  private async steps(step: () => number): Promise<number> {
    let moved = 0;
    try {
      for (let n = step(); n > 0; n = step()) {
        moved += n;
        await yieldTurn();
      }
    } finally {
      this.cursor = 0;
      ({ queued: this.queued, paused: this.paused } = this.backlog.counts());
    }
    return moved;
  }

  /** How many are taken in and not transferred yet (tests assert the window stays bounded). */
  get holding(): number {
    return this.taken.size;
  }
}
