import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';

/**
 * Where job records live. A write must be durable when it returns: the engine writes a record before
 * each paid create and relies on finding it after a crash.
 */
export interface LedgerStorage {
  loadAll(): JobRecord[];
  put(record: JobRecord): void;
  remove(id: string): void;
}

export class MemoryLedgerStorage implements LedgerStorage {
  readonly records = new Map<string, JobRecord>();
  writes = 0;
  loadAll(): JobRecord[] {
    return [...this.records.values()].map((r) => structuredClone(r));
  }
  put(record: JobRecord): void {
    this.writes += 1;
    this.records.set(record.id, structuredClone(record));
  }
  remove(id: string): void {
    this.records.delete(id);
  }
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * One small JSON file per job in a folder, so an update rewrites only that job. Each write goes to a
 * temporary file that is fsynced, renamed over the old one, and the folder fsynced: after a crash a file
 * holds either the old or the new record, never half of one.
 */
export class FileLedgerStorage implements LedgerStorage {
  constructor(
    readonly dir: string,
    private readonly log?: Logger,
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

  put(record: JobRecord): void {
    const target = this.file(record.id);
    const temp = `${target}.tmp`;
    mkdirSync(this.dir, { recursive: true });
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(record));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
    this.syncDir();
  }

  remove(id: string): void {
    rmSync(this.file(id), { force: true });
    this.syncDir();
  }

  private syncDir(): void {
    let fd: number | undefined;
    try {
      fd = openSync(this.dir, 'r');
      fsyncSync(fd);
    } catch {
      // Some platforms (Windows) cannot fsync a folder; the rename is still atomic there.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}
