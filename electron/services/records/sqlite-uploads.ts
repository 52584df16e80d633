import type Database from 'libsql';
import type { Logger } from '../host/types';
import type { UploadEntry, UploadRecords } from '../storage/upload-records';
import { setSynchronous, type RecordsDatabase } from './database';
import { TurnCommits } from './turn-commits';

const FIND = `SELECT storage_id, hash, object_key, url, expires_at, size_bytes, file_name, uploaded_at
  FROM uploads WHERE storage_id = ? AND hash = ?`;
export const PUT_UPLOAD = `INSERT OR REPLACE INTO uploads
  (storage_id, hash, object_key, url, expires_at, size_bytes, file_name, uploaded_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
const FORGET = 'DELETE FROM uploads WHERE expires_at < ?';

interface Row {
  storage_id: string;
  hash: string;
  object_key: string;
  url: string;
  expires_at: number | null;
  size_bytes: number;
  file_name: string;
  uploaded_at: number;
}

/** The row's values in PUT_UPLOAD's order. */
export function uploadValues(entry: UploadEntry): (string | number | null)[] {
  return [
    entry.storageId,
    entry.hash,
    entry.key,
    entry.url,
    entry.expiresAt,
    entry.sizeBytes,
    entry.fileName,
    entry.uploadedAt,
  ];
}

/**
 * The upload records as rows of the folder's database. A lookup is one query on the key (storage,
 * hash) and a change one statement, committed with the turn's other changes on the connection
 * (TurnCommits) and never the reason for a flush: it survives a crash of the studio, and a power cut that
 * loses it costs one upload again, not worth an fsync each (the next flushed commit of the ledger takes
 * it to disk anyway). Nothing is kept here per upload but the links of the turn not yet committed.
 *
 * Beside the folder's owner (opened read-only, or no database yet) it finds what the owner recorded and
 * keeps nothing: the owner's own uploads are the record. A write that fails (a disk full, a lock held
 * too long) is logged and dropped, since the upload it describes has already succeeded.
 */
export class SqliteUploadRecords implements UploadRecords {
  private statements: Record<'find' | 'put' | 'forget', Database.Statement<unknown[]>> | null = null;
  /** The links remembered this turn and not yet committed, by storage and hash: a lookup finds them too. */
  private unwritten = new Map<string, UploadEntry>();
  private readonly commits: TurnCommits<Map<string, UploadEntry>>;

  constructor(
    /** null: a reader beside a folder that has no database yet. */
    private readonly database: RecordsDatabase | null,
    private readonly log?: Logger,
  ) {
    this.commits = new TurnCommits(database && !database.readOnly ? database.db : null, {
      empty: () => new Map(),
      // A link lost to a power cut costs one upload again: never worth a flush of its own.
      durable: () => false,
      write: (entries) => {
        const { put } = this.prepared();
        for (const entry of entries.values()) put.run(...uploadValues(entry));
        return () => this.letGo(entries);
      },
      failed: (entries, error) => {
        this.letGo(entries);
        this.log?.warn('upload record not kept', { error: String(error) });
      },
    });
  }

  find(storageId: string, hash: string): UploadEntry | null {
    if (!this.database) return null;
    const unwritten = this.unwritten.get(uploadKey(storageId, hash));
    if (unwritten) return unwritten;
    try {
      const row = this.prepared().find.get(storageId, hash) as Row | undefined;
      return row ? entryOf(row) : null;
    } catch (error) {
      // Sent again rather than not at all: the upload goes on as if the bytes were new here.
      this.log?.warn('upload records could not be read', { error: String(error) });
      return null;
    }
  }

  /** Written with the turn's other changes on the connection (TurnCommits), unflushed. */
  remember(entry: UploadEntry): void {
    if (!this.database || this.database.readOnly) return;
    const key = uploadKey(entry.storageId, entry.hash);
    this.unwritten.set(key, entry);
    // A failure is logged by the writer's `failed`, and dropped: the upload itself has succeeded.
    void this.commits.add((entries) => entries.set(key, entry)).catch(() => undefined);
  }

  /** Settles once the links remembered so far are committed (or have failed). */
  written(): Promise<void> {
    return this.commits.flush();
  }

  forgetExpiredBefore(time: number): void {
    this.write('pruned', () => this.prepared().forget.run(Math.floor(time)));
  }

  /** Forgets the uncommitted copies of a turn's links, unless a newer one was remembered meanwhile. */
  private letGo(entries: Map<string, UploadEntry>): void {
    for (const [key, entry] of entries) if (this.unwritten.get(key) === entry) this.unwritten.delete(key);
  }

  private write(what: string, change: () => unknown): void {
    if (!this.database || this.database.readOnly) return;
    try {
      setSynchronous(this.database.db, 'NORMAL');
      change();
    } catch (error) {
      this.log?.warn(`upload record not ${what}`, { error: String(error) });
    }
  }

  private prepared() {
    const { db } = this.database as RecordsDatabase;
    this.statements ??= { find: db.prepare(FIND), put: db.prepare(PUT_UPLOAD), forget: db.prepare(FORGET) };
    return this.statements;
  }
}

function uploadKey(storageId: string, hash: string): string {
  return `${storageId}\0${hash}`;
}

function entryOf(row: Row): UploadEntry {
  return {
    storageId: row.storage_id,
    hash: row.hash,
    key: row.object_key,
    url: row.url,
    expiresAt: row.expires_at,
    sizeBytes: row.size_bytes,
    fileName: row.file_name,
    uploadedAt: row.uploaded_at,
  };
}
