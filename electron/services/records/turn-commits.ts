import { setSynchronous, type Sqlite } from './database';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** What a store does with the changes it gathered in one turn (its part of the turn's one transaction). */
export interface TurnWriter<Batch> {
  empty(): Batch;
  /** Whether the batch holds a change that must outlive a power cut: the turn's commit is then flushed. */
  durable(batch: Batch): boolean;
  /**
   * Runs the batch's statements inside the turn's transaction (no BEGIN or COMMIT of its own); throws to
   * have its own part undone and its callers told. May answer what to do once the turn has committed.
   */
  write(batch: Batch): (() => void) | void;
  /** The batch was not committed (its own statements failed, or the turn's commit did). */
  failed?(batch: Batch, error: unknown): void;
}

/** One store's gathered changes, taken out of its TurnCommits when the turn commits. */
interface Part {
  write(): (() => void) | void;
  durable(): boolean;
  done(): void;
  fail(error: unknown): void;
}

/**
 * The turn of one connection: every store on it (the ledger, the runs, the download queue, the upload
 * links) folds its changes into the same turn, and the turn commits them in one transaction at its end
 * (setImmediate). A worker's row touched three or four stores a turn, each with a transaction and, for
 * some, an fsync of its own: about 18 commits a row, where one a turn does. The commit is flushed
 * (synchronous = FULL) when any part of it must be, so a paid create's record still reaches the disk
 * before its caller hears that it is written; the rest ride along with it, or commit unflushed (NORMAL:
 * kept through a crash of the process, lost only with a power cut before the next flushed commit).
 *
 * Each store's part runs under a savepoint: a store whose statements fail (a trigger, a constraint) is
 * undone alone and only its callers hear of it; a commit that fails is told to every part.
 */
class ConnectionTurn {
  private readonly pending = new Set<TurnCommits<never>>();
  private scheduled: Promise<void> | null = null;

  constructor(private readonly db: Sqlite | null) {}

  join(store: TurnCommits<never>): void {
    this.pending.add(store);
    this.scheduled ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.scheduled = null;
        this.commit();
        resolve();
      }),
    );
  }

  /** Commits every store's changes gathered so far, before returning; their callers settle with it. */
  commit(): void {
    const parts = [...this.pending].map((store) => store.take()).filter((part): part is Part => part !== null);
    this.pending.clear();
    if (parts.length === 0) return;
    const db = this.db;
    // A reader's stores (no connection to write on): each part alone, and its writer refuses it.
    if (!db) return parts.forEach((part) => runAlone(part));
    try {
      // Set before BEGIN: the level a commit is flushed at is the connection's when it commits.
      setSynchronous(db, parts.some((part) => part.durable()) ? 'FULL' : 'NORMAL');
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      return parts.forEach((part) => part.fail(error));
    }
    const written: { part: Part; after: (() => void) | void }[] = [];
    // Alone in the turn, a store's failure undoes the whole transaction; among others, its savepoint only.
    const alone = parts.length === 1;
    for (const part of parts) {
      const write = () => void written.push({ part, after: part.write() });
      const failure = alone ? attempt(write) : savepoint(db, write);
      if (!failure) continue;
      part.fail(failure.error);
      // SQLite ended the whole transaction itself (a full disk can): nothing of the turn is kept.
      if (!db.inTransaction) {
        for (const later of parts.slice(parts.indexOf(part) + 1)) later.fail(failure.error);
        return written.forEach(({ part: earlier }) => earlier.fail(failure.error));
      }
    }
    try {
      db.exec(written.length > 0 ? 'COMMIT' : 'ROLLBACK');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      return written.forEach(({ part }) => part.fail(error));
    }
    for (const { part, after } of written) {
      after?.();
      part.done();
    }
  }

  async flush(): Promise<void> {
    while (this.scheduled) await this.scheduled;
  }
}

/** Runs `write` under a savepoint: undone alone when it throws (answered as `{ error }`), kept otherwise. */
function savepoint(db: Sqlite, write: () => void): { error: unknown } | undefined {
  db.exec('SAVEPOINT store');
  const failure = attempt(write);
  if (failure && !db.inTransaction) return failure;
  if (failure) db.exec('ROLLBACK TO store');
  db.exec('RELEASE store');
  return failure;
}

function attempt(write: () => void): { error: unknown } | undefined {
  try {
    write();
  } catch (error) {
    return { error };
  }
  return undefined;
}

function runAlone(part: Part): void {
  let after: (() => void) | void = undefined;
  const failure = attempt(() => void (after = part.write()));
  if (failure) return part.fail(failure.error);
  (after as (() => void) | undefined)?.();
  part.done();
}

const turns = new WeakMap<Sqlite, ConnectionTurn>();

/** The one turn of a connection, shared by every store on it; a store with no connection has its own. */
function turnOf(db: Sqlite | null): ConnectionTurn {
  if (!db) return new ConnectionTurn(null);
  let turn = turns.get(db);
  if (!turn) {
    turn = new ConnectionTurn(db);
    turns.set(db, turn);
  }
  return turn;
}

/**
 * One store's changes of the current event-loop turn, committed with every other store's on the same
 * connection (ConnectionTurn): a burst of submits, a poll round, a row's change and its download cost one
 * transaction and at most one fsync rather than one each, and SQLite's statements are synchronous, so a
 * transaction per change would also hold the main thread that much longer.
 *
 * Each change is folded into the store's batch (the store decides what a batch is: the last change of a
 * record winning, whether it must be flushed); its promise settles once the turn is committed, or is
 * rejected with the error of its store's part. Only the callers of that batch hear of a failure: the
 * next batch starts empty. `now` commits the connection's turn at once, for a caller that must know its
 * change is on disk before it goes on, and for a store about to close the connection.
 */
export class TurnCommits<Batch> {
  private batch: Batch;
  private waiters: Waiter[] = [];
  private readonly turn: ConnectionTurn;

  /** `db`: the connection to write on; null for a reader, whose writer refuses every change itself. */
  constructor(
    db: Sqlite | null,
    private readonly writer: TurnWriter<Batch>,
  ) {
    this.batch = writer.empty();
    this.turn = turnOf(db);
  }

  /** Folds a change into this turn's batch; settles once the turn is committed. */
  add(fold: (batch: Batch) => void): Promise<void> {
    fold(this.batch);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.turn.join(this as unknown as TurnCommits<never>);
    return done;
  }

  /** Commits what the connection's turn gathered so far, before returning; the callers settle with it. */
  now(): void {
    this.turn.commit();
  }

  /** Settles once every change asked for so far on the connection is committed (or has failed). */
  flush(): Promise<void> {
    return this.turn.flush();
  }

  /** This store's part of the turn, its batch emptied for the next turn (null: nothing asked for). */
  take(): Part | null {
    if (this.waiters.length === 0) return null;
    const { batch, waiters, writer } = this;
    this.batch = writer.empty();
    this.waiters = [];
    return {
      write: () => writer.write(batch),
      durable: () => writer.durable(batch),
      done: () => waiters.forEach((waiter) => waiter.resolve()),
      fail: (error: unknown) => {
        writer.failed?.(batch, error);
        for (const waiter of waiters) waiter.reject(error);
      },
    };
  }
}
