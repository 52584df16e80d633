import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { processAlive } from './data-folder-lock';

/**
 * The file in a data folder saying where its owner (the desktop app, the web host) takes commands from
 * other `studio` processes, and the token they must show. Only the user can read it (0600): the token is
 * what keeps another account on the machine from sending paid work through the owner.
 */
export const OWNER_RECORD_FILE = 'studio-owner.json';

const OwnerRecord = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  kind: z.string().max(100),
  port: z.number().int().min(1).max(65535),
  token: z.string().min(32).max(200),
  startedAt: z.number(),
});
export type OwnerRecord = z.infer<typeof OwnerRecord>;

export const ownerRecordPath = (dataDir: string): string => join(dataDir, OWNER_RECORD_FILE);

/** A fresh token for one owner's lifetime: 32 random bytes. */
export function newOwnerToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares a shown token with the owner's in constant time (a length mismatch is simply wrong). */
export function sameToken(shown: string, expected: string): boolean {
  const left = Buffer.from(shown);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Writes the record, replacing any earlier one (the caller holds the folder's lock, so an earlier record
 * is a stale one left by a crash). Written to a private file first and renamed, so a reader never sees
 * half a record and the token is never in a file anyone else may read, even for a moment.
 */
export function writeOwnerRecord(
  dataDir: string,
  record: Omit<OwnerRecord, 'host' | 'pid' | 'startedAt'>,
): OwnerRecord {
  const full: OwnerRecord = { ...record, pid: process.pid, host: hostname(), startedAt: Date.now() };
  const path = ownerRecordPath(dataDir);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(full)}\n`, { mode: 0o600 });
  // The mode given at creation is narrowed by the umask only, never widened; chmod states it anyway.
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return full;
}

/** Removes the record if it is still this process's (a newer owner's record is left alone). */
export function removeOwnerRecord(dataDir: string): void {
  const path = ownerRecordPath(dataDir);
  if (readOwnerRecord(dataDir)?.pid === process.pid) rmSync(path, { force: true });
}

/** The record as written, or null when there is none or it cannot be read as one. */
export function readOwnerRecord(dataDir: string): OwnerRecord | null {
  let text: string;
  try {
    text = readFileSync(ownerRecordPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = OwnerRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The record of an owner that may still be running: one left by a process of this machine that has
 * exited (a crash, a kill) is stale and ignored; the next owner replaces it.
 */
export function liveOwnerRecord(dataDir: string): OwnerRecord | null {
  const record = readOwnerRecord(dataDir);
  if (!record) return null;
  if (record.host === hostname() && !processAlive(record.pid)) return null;
  return record;
}
