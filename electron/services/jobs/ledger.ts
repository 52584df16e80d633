import { join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import type { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import type { Notice } from '../../common/bridge/system';
import { nodeFileSystem, replaceFile, syncFolder, type AtomicFileSystem } from '../projects/atomic-file';
import { JOURNAL, readLedger } from './ledger-read';

/**
 * Where job records live. `put` resolves once the record is durably on disk: the engine awaits it before
 * each paid create and relies on finding the record after a crash.
 */
export interface LedgerStorage {
  loadAll(): JobRecord[];
  put(record: JobRecord): Promise<void>;
  remove(id: string): Promise<void>;
  /** Settles when every write started so far is on disk. */
  flush(): Promise<void>;
}

export class MemoryLedgerStorage implements LedgerStorage {
  readonly records = new Map<string, JobRecord>();
  writes = 0;
  loadAll(): JobRecord[] {
    return [...this.records.values()].map((r) => structuredClone(r));
  }
  async put(record: JobRecord): Promise<void> {
    this.writes += 1;
    this.records.set(record.id, structuredClone(record));
  }
  async remove(id: string): Promise<void> {
    this.records.delete(id);
  }
  async flush(): Promise<void> {}
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** The journal is rewritten with only the newest line of each job once it is this large and mostly history. */
const COMPACT_AT_BYTES = 1 << 20;
const IDLE_CLOSE_MS = 2_000;

/**
 * The ledger on disk is a journal (`ledger.jsonl`): each batch of changes is appended as one write of
 * JSON lines and made durable with one fdatasync, so a burst of jobs costs one flush per batch instead of
 * a file, a flush and a rename per record. Writes are group-committed: every change made while a batch is
 * on its way to disk goes in the next batch, and each `put` settles only when its own line is durable.
 * A crash mid-append leaves a line without its newline, which readers skip and the next writer cuts off
 * (its `put` never settled). When the journal is mostly superseded lines it is rewritten atomically
 * (temporary file, fsync, rename, folder fsync) with the newest line of each job.
 *
 * One process writes a data folder at a time (the data-folder lock); any number may read.
 */
export type LedgerFileSystem = AtomicFileSystem;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What the writer knows of the journal between batches. */
interface JournalState {
  path: string;
  /** Bytes of whole lines; a failed append is cut back to this. */
  length: number;
  liveBytes: Map<string, number>;
  liveTotal: number;
  /** A compaction that failed (a full disk) is tried again only after the journal has doubled. */
  compactAbove: number;
}

export class FileLedgerStorage implements LedgerStorage {
  private pending = new Map<string, JobRecord | null>();
  private waiters: Waiter[] = [];
  private batch: Promise<void> | null = null;
  private journal: JournalState | null = null;
  private handle: FileHandle | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly dir: string,
    private readonly log?: Logger,
    /** The file operations a write uses; tests pass a recorder to prove each write is durable. */
    private readonly fs: LedgerFileSystem = nodeFileSystem,
    /** Tells the user about a record set aside: its job leaves the Library, so they must know. */
    private readonly notify?: (notice: Notice) => void,
  ) {}

  private checkId(id: string): void {
    if (!SAFE_ID.test(id)) throw new Error(`Invalid job id "${id}"`);
  }

  loadAll(): JobRecord[] {
    return [...readLedger(this.dir, { log: this.log, notify: this.notify }).records.values()];
  }

  async put(record: JobRecord): Promise<void> {
    this.checkId(record.id);
    return this.enqueue(record.id, record);
  }

  async remove(id: string): Promise<void> {
    this.checkId(id);
    return this.enqueue(id, null);
  }

  async flush(): Promise<void> {
    while (this.batch) await this.batch.catch(() => undefined);
  }

  private enqueue(id: string, value: JobRecord | null): Promise<void> {
    this.pending.set(id, value);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.batch ??= this.runBatches();
    return done;
  }

  /** Writes batches until nothing is pending; a batch starts after the current event-loop turn. */
  private async runBatches(): Promise<void> {
    try {
      await new Promise((resolve) => setImmediate(resolve));
      this.cancelIdleClose();
      while (this.pending.size > 0) {
        const values = this.pending;
        const waiters = this.waiters;
        this.pending = new Map();
        this.waiters = [];
        let failure: unknown = undefined;
        try {
          this.handle ??= await this.openJournal();
          await this.append(this.handle, values);
        } catch (error) {
          failure = error;
        }
        for (const waiter of waiters) {
          if (failure === undefined) waiter.resolve();
          else waiter.reject(failure);
        }
        if (failure === undefined && this.journal && this.worthCompacting(this.journal)) {
          await this.closeHandle();
          await this.compact(this.journal);
        }
      }
    } finally {
      this.batch = null;
      this.scheduleIdleClose();
    }
  }

  /**
   * The journal stays open while jobs keep changing (a burst of batches opens it once) and is closed
   * once the ledger has been idle for a moment, so no file handle is left for the collector to close.
   */
  private scheduleIdleClose(): void {
    this.cancelIdleClose();
    if (!this.handle) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.batch) void this.closeHandle();
    }, IDLE_CLOSE_MS);
    this.idleTimer.unref?.();
  }

  private cancelIdleClose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }

  /** Opens the journal for appending; the first time, learns its state and cuts off a crash's torn tail. */
  private async openJournal(): Promise<FileHandle> {
    if (!this.journal) {
      await this.fs.mkdir(this.dir, { recursive: true });
      const disk = readLedger(this.dir, { log: this.log, notify: this.notify }, { validate: false });
      let liveTotal = 0;
      for (const bytes of disk.liveBytes.values()) liveTotal += bytes;
      this.journal = {
        path: join(this.dir, JOURNAL),
        length: disk.journalLength,
        liveBytes: disk.liveBytes,
        liveTotal,
        compactAbove: COMPACT_AT_BYTES,
      };
      const handle = await this.fs.open(this.journal.path, 'a', 0o600);
      try {
        if ((await handle.stat()).size > this.journal.length) await handle.truncate(this.journal.length);
        // A new journal's name must survive a power cut before any line in it counts as durable.
        if (this.journal.length === 0) await syncFolder(this.dir, this.fs);
      } catch (error) {
        await handle.close();
        this.journal = null;
        throw error;
      }
      return handle;
    }
    return this.fs.open(this.journal.path, 'a', 0o600);
  }

  /** One write and one fdatasync for the whole batch; on failure the journal is cut back to whole lines. */
  private async append(handle: FileHandle, values: Map<string, JobRecord | null>): Promise<void> {
    const journal = this.journal as JournalState;
    const lines: [string, number][] = [];
    let text = '';
    for (const [id, value] of values) {
      const line = `${JSON.stringify(value === null ? { remove: id } : { put: value })}\n`;
      text += line;
      lines.push([id, value === null ? 0 : Buffer.byteLength(line)]);
    }
    try {
      await handle.appendFile(text, 'utf8');
      await handle.datasync();
    } catch (error) {
      // A put that failed must not come back after a restart as a job that may have been sent.
      await handle.truncate(journal.length).catch(() => undefined);
      throw error;
    }
    journal.length += Buffer.byteLength(text);
    for (const [id, bytes] of lines) {
      journal.liveTotal += bytes - (journal.liveBytes.get(id) ?? 0);
      if (bytes === 0) journal.liveBytes.delete(id);
      else journal.liveBytes.set(id, bytes);
    }
  }

  private worthCompacting(journal: JournalState): boolean {
    return journal.length > journal.compactAbove && journal.length > 2 * journal.liveTotal;
  }

  /** Rewrites the journal with the newest line of each job. */
  private async compact(journal: JournalState): Promise<void> {
    try {
      const disk = readLedger(this.dir, { log: this.log, notify: this.notify });
      let text = '';
      const liveBytes = new Map<string, number>();
      for (const record of disk.records.values()) {
        const line = `${JSON.stringify({ put: record })}\n`;
        text += line;
        liveBytes.set(record.id, Buffer.byteLength(line));
      }
      await replaceFile(journal.path, text, { mode: 0o600, tempPath: `${journal.path}.tmp`, fs: this.fs });
      await syncFolder(this.dir, this.fs);
      const length = Buffer.byteLength(text);
      this.journal = { ...journal, length, liveBytes, liveTotal: length, compactAbove: COMPACT_AT_BYTES };
    } catch (error) {
      this.journal = { ...journal, compactAbove: Math.max(COMPACT_AT_BYTES, journal.length * 2) };
      this.log?.warn('job ledger compaction failed; the journal is kept as it is', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
