import { existsSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import type { Notice } from '../../common/bridge/system';
import { nodeFileSystem, replaceFile, syncFolder, type AtomicFileSystem } from '../projects/atomic-file';

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

/**
 * One small JSON file per job in a folder, so an update rewrites only that job. Each write goes to a
 * temporary file that is fsynced and renamed over the old one, and the folder is fsynced: after a
 * crash a file holds either the old or the new record, never half of one. Writes are group-committed:
 * every record changed while a batch is on its way to disk goes in the next batch, which ends with one
 * folder fsync, and each `put` settles only when its own record is durable. Several updates of one job
 * in a batch become one write of the newest.
 */
export type LedgerFileSystem = AtomicFileSystem;

interface Waiter {
  id: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class FileLedgerStorage implements LedgerStorage {
  private pending = new Map<string, JobRecord | null>();
  private waiters: Waiter[] = [];
  private batch: Promise<void> | null = null;

  constructor(
    readonly dir: string,
    private readonly log?: Logger,
    /** The file operations a write uses; tests pass a recorder to prove each write is atomic and durable. */
    private readonly fs: LedgerFileSystem = nodeFileSystem,
    /** Tells the user about a record set aside: its job leaves the Library, so they must know. */
    private readonly notify?: (notice: Notice) => void,
  ) {}

  private file(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`Invalid job id "${id}"`);
    return join(this.dir, `${id}.json`);
  }

  loadAll(): JobRecord[] {
    const records: JobRecord[] = [];
    if (!existsSync(this.dir)) return records;
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      const path = join(this.dir, name);
      try {
        const parsed = JobRecord.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        if (parsed.success) records.push(parsed.data);
        else throw new Error(parsed.error.issues[0]?.message ?? 'invalid record');
      } catch (error) {
        // Keep the file for inspection but out of the way, so one bad record cannot hide the others.
        const aside = `${path}.unreadable`;
        const text = readFileSync(path, 'utf8');
        renameSync(path, aside);
        this.log?.warn('job ledger record set aside', { file: aside, reason: error instanceof Error ? error.message : String(error) });
        this.notify?.({
          level: 'warning',
          title: 'A job record could not be read and was set aside',
          detail: `The job is no longer listed in the Library. ${describeRecoverable(text)} The file was kept as ${aside}.`,
        });
      }
    }
    return records;
  }

  async put(record: JobRecord): Promise<void> {
    this.file(record.id);
    return this.enqueue(record.id, record);
  }

  async remove(id: string): Promise<void> {
    this.file(id);
    return this.enqueue(id, null);
  }

  async flush(): Promise<void> {
    while (this.batch) await this.batch.catch(() => undefined);
  }

  private enqueue(id: string, value: JobRecord | null): Promise<void> {
    this.pending.set(id, value);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ id, resolve, reject }));
    this.batch ??= this.runBatches();
    return done;
  }

  /** Writes batches until nothing is pending; a batch starts after the current event-loop turn. */
  private async runBatches(): Promise<void> {
    try {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.pending.size > 0) {
        const values = this.pending;
        const waiters = this.waiters;
        this.pending = new Map();
        this.waiters = [];
        const failures = await this.writeBatch(values);
        for (const waiter of waiters) {
          const failure = failures.get(waiter.id);
          if (failure === undefined) waiter.resolve();
          else waiter.reject(failure);
        }
      }
    } finally {
      this.batch = null;
    }
  }

  /** Returns the error of each record that could not be made durable. */
  private async writeBatch(values: Map<string, JobRecord | null>): Promise<Map<string, unknown>> {
    const failures = new Map<string, unknown>();
    try {
      await this.fs.mkdir(this.dir, { recursive: true });
    } catch (error) {
      for (const id of values.keys()) failures.set(id, error);
      return failures;
    }
    const entries = [...values];
    // Bounded, so a burst of thousands of jobs does not open thousands of files at once.
    for (let i = 0; i < entries.length; i += 64) await Promise.all(entries.slice(i, i + 64).map(async ([id, value]) => {
      try {
        const target = this.file(id);
        if (value === null) {
          await this.fs.rm(target, { force: true });
          return;
        }
        // A fixed temporary name: one batch never writes a record twice, and batches run one at a time.
        await replaceFile(target, JSON.stringify(value), { mode: 0o600, tempPath: `${target}.tmp`, fs: this.fs });
      } catch (error) {
        failures.set(id, error);
      }
    }));
    // One folder flush for the whole batch; no put settles before it.
    await syncFolder(this.dir, this.fs);
    return failures;
  }
}

/**
 * What can still be read from a damaged job record, so the user can find the paid job on the service:
 * its kind, the service's id, the result link and when it was made. Works on records that are valid
 * JSON but not a valid record, and on cut-off files (by looking for the fields' text).
 */
export function describeRecoverable(text: string): string {
  let fields: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') fields = parsed as Record<string, unknown>;
  } catch {
    for (const name of ['kind', 'remoteId', 'resultUrl', 'connectionName', 'summary']) {
      const match = new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text);
      if (match) fields[name] = match[1];
    }
    const created = /"createdAt"\s*:\s*(\d+)/.exec(text);
    if (created) fields.createdAt = Number(created[1]);
  }
  const known: string[] = [];
  if (typeof fields.summary === 'string') known.push(`request: ${fields.summary}`);
  else if (typeof fields.kind === 'string') known.push(`kind: ${fields.kind}`);
  if (typeof fields.connectionName === 'string') known.push(`sent to: ${fields.connectionName}`);
  if (typeof fields.remoteId === 'string') known.push(`service id: ${fields.remoteId}`);
  if (typeof fields.resultUrl === 'string') known.push(`result: ${fields.resultUrl}`);
  if (typeof fields.createdAt === 'number') known.push(`created: ${new Date(fields.createdAt).toISOString()}`);
  return known.length > 0
    ? `What could be read of it: ${known.join('; ')}.`
    : 'Nothing of it could be read; check the service dashboard for jobs you sent.';
}

