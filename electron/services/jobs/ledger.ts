import { existsSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';

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
 * temporary file that is fsynced, renamed over the old one, and the folder fsynced: after a crash a
 * file holds either the old or the new record, never half of one. Writes run off the event loop, one
 * at a time per job; updates queued behind a write are folded into a single write of the newest record.
 */
export interface LedgerFileSystem {
  open: typeof open;
  rename: typeof rename;
  rm: typeof rm;
  mkdir: typeof mkdir;
}

export class FileLedgerStorage implements LedgerStorage {
  private readonly newest = new Map<string, JobRecord | null>();
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    readonly dir: string,
    private readonly log?: Logger,
    /** The file operations a write uses; tests pass a recorder to prove each write is atomic and durable. */
    private readonly fs: LedgerFileSystem = { open, rename, rm, mkdir },
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
        renameSync(path, aside);
        this.log?.warn('job ledger record set aside', { file: aside, reason: error instanceof Error ? error.message : String(error) });
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
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  private enqueue(id: string, value: JobRecord | null): Promise<void> {
    this.newest.set(id, value);
    const next = (this.chains.get(id) ?? Promise.resolve()).then(() => this.writeNewest(id));
    this.chains.set(id, next);
    void next.finally(() => {
      if (this.chains.get(id) === next) this.chains.delete(id);
    }).catch(() => undefined);
    return next;
  }

  private async writeNewest(id: string): Promise<void> {
    if (!this.newest.has(id)) return; // an earlier flush already wrote the newest value
    const value = this.newest.get(id) as JobRecord | null;
    this.newest.delete(id);
    const target = this.file(id);
    if (value === null) {
      await this.fs.rm(target, { force: true });
      await this.syncDir();
      return;
    }
    await this.fs.mkdir(this.dir, { recursive: true });
    const temp = `${target}.tmp`;
    const handle = await this.fs.open(temp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(value));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.fs.rename(temp, target);
    await this.syncDir();
  }

  private async syncDir(): Promise<void> {
    try {
      const handle = await this.fs.open(this.dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Some platforms (Windows) cannot fsync a folder; the rename is still atomic there.
    }
  }
}
