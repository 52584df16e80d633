import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { DownloadEntry } from '../../common/bridge/downloads';

export interface CopyCheck {
  state: 'saved' | 'missing' | 'changed';
  /** The hash and modification time to remember when the copy is as written. */
  sha256: string | null;
  mtimeMs: number | null;
}

/**
 * Is a saved copy still the file that was written? Gone (or unreadable: an unmounted disk) is missing;
 * another length, or another content hash, is changed. A copy whose length and modification time are
 * those its hash was taken at is not read again unless `deep` (the check at start reads every copy);
 * a copy saved before hashes were kept gets its hash now, and says so by `sha256` being new.
 */
export async function checkCopy(
  entry: Pick<DownloadEntry, 'savedPath' | 'bytes' | 'sha256' | 'mtimeMs'>,
  { deep }: { deep: boolean },
): Promise<CopyCheck> {
  const gone: CopyCheck = { state: 'missing', sha256: entry.sha256, mtimeMs: entry.mtimeMs };
  if (!entry.savedPath) return gone;
  const info = await stat(entry.savedPath).catch(() => null);
  if (!info?.isFile()) return gone;
  if (info.size !== entry.bytes) return { state: 'changed', sha256: entry.sha256, mtimeMs: entry.mtimeMs };
  if (!deep && entry.sha256 !== null && entry.mtimeMs === info.mtimeMs)
    return { state: 'saved', sha256: entry.sha256, mtimeMs: info.mtimeMs };
  const sha256 = await hashFile(entry.savedPath).catch(() => null);
  if (sha256 === null) return gone;
  if (entry.sha256 !== null && sha256 !== entry.sha256)
    return { state: 'changed', sha256: entry.sha256, mtimeMs: entry.mtimeMs };
  return { state: 'saved', sha256, mtimeMs: info.mtimeMs };
}

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** What checking a queue's saved copies needs of the queue. */
export interface SavedCopiesHost {
  now(): number;
  /** The queue is shutting down: the check stops where it is. */
  stopped(): boolean;
  /** Records a change of state (shown and written). */
  update(entry: DownloadEntry, change: Partial<DownloadEntry>): void;
  /**
   * Why the folder's drive is missing (see MissingDrives), or null, read when a copy there is found
   * missing: a check begun before the drive went (two overlap under load) would otherwise take its
   * copies for deleted and fetch them again into the empty mount point's place.
   */
  driveMissing?(folder: string): Promise<string | null>;
  /** The folder's device, recorded with a copy found intact that has none yet (saved by an earlier version). */
  deviceOf?(folder: string): Promise<number | null>;
}

async function lostReason(
  entry: DownloadEntry,
  state: CopyCheck['state'],
  drive: (folder: string) => Promise<string | null>,
): Promise<string | null> {
  if (state === 'missing') return (await drive(entry.folder)) ?? `The saved copy is no longer at ${entry.savedPath}.`;
  if (state === 'changed')
    return `The file at ${entry.savedPath} is no longer the one saved (another length or content).`;
  return null;
}

/**
 * Checks each saved copy (and each found missing or changed before, which may be back: a disk mounted
 * again) against what was written. Answers the entries whose state changed, whether a hash or a
 * modification time was learnt on the way (worth writing down, not worth showing), and how many copies
 * were looked at. The manager gives it a page of the record at a time.
 */
export async function checkSavedCopies(
  pool: readonly DownloadEntry[],
  deep: boolean,
  host: SavedCopiesHost,
): Promise<{ moved: DownloadEntry[]; learnt: boolean; checked: number }> {
  const isCopy = (e: DownloadEntry) => e.state === 'saved' || e.state === 'missing' || e.state === 'changed';
  const moved: DownloadEntry[] = [];
  let learnt = false;
  let checked = 0;
  // Each folder's drive is read once a check, at the first copy found missing there.
  const drives = new Map<string, Promise<string | null>>();
  const drive = (folder: string) => {
    if (!host.driveMissing) return Promise.resolve(null);
    const known = drives.get(folder) ?? host.driveMissing(folder);
    drives.set(folder, known);
    return known;
  };
  for (const entry of pool.filter((e) => e.savedPath !== null && isCopy(e))) {
    const check = await checkCopy(entry, { deep });
    if (host.stopped()) break;
    // Paused, cancelled or fetched again while the disk was read: that decision stands.
    if (!isCopy(entry)) continue;
    checked += 1;
    const change: Partial<DownloadEntry> = { sha256: check.sha256, mtimeMs: check.mtimeMs };
    if (check.state === 'saved') change.verifiedAt = host.now();
    if (check.state === 'saved' && entry.folderDev == null && host.deviceOf)
      change.folderDev = await host.deviceOf(entry.folder);
    learnt ||= check.sha256 !== entry.sha256 || check.mtimeMs !== entry.mtimeMs || change.folderDev != null;
    const reason = await lostReason(entry, check.state, drive);
    // A missing copy says so again when the cause is learnt: its drive went, or came back empty.
    if (check.state !== entry.state || (check.state === 'missing' && reason !== entry.reason)) {
      host.update(entry, { ...change, state: check.state, reason });
      moved.push(entry);
    } else Object.assign(entry, change);
  }
  return { moved, learnt, checked };
}

/** Copies checked before their changes are written and the next are read: a page of the record's. */
const CHECKED_A_STEP = 500;

/**
 * checkSavedCopies over copies read as they come (the record's, a page at a time), a step of them at a
 * time: what a step learnt is written (`learnt`) before the next is read, so only a step is in memory
 * beside the copies found moved.
 */
export async function checkInSteps(
  among: Iterable<DownloadEntry>,
  deep: boolean,
  host: Pick<CopyChecksHost, keyof SavedCopiesHost | 'learnt'>,
): Promise<{ moved: DownloadEntry[]; checked: number }> {
  const moved: DownloadEntry[] = [];
  let checked = 0;
  let pool: DownloadEntry[] = [];
  const step = async () => {
    const found = await checkSavedCopies(pool, deep, host);
    if (found.learnt) host.learnt(pool);
    checked += found.checked;
    moved.push(...found.moved);
    pool = [];
  };
  for (const entry of among) {
    if (host.stopped()) break;
    pool.push(entry);
    if (pool.length >= CHECKED_A_STEP) await step();
  }
  await step();
  return { moved, checked };
}

/** What a check of the queue's copies needs beside SavedCopiesHost: the copies, and where learnt facts go. */
export interface CopyChecksHost extends SavedCopiesHost {
  /** The copies of these ids (held or recorded), or every copy of the record, read as they come. */
  among(ids?: readonly string[]): Iterable<DownloadEntry>;
  /** Writes what a step learnt (a hash, a time), unflushed: worth keeping, not worth an fsync. */
  learnt(pool: readonly DownloadEntry[]): void;
}

/**
 * The checks of a queue's copies (checkInSteps), one at a time: a second call waits for the first and
 * checks again. Answers the copies whose state changed; `tally` counts those looked at.
 */
export class CopyChecks {
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: CopyChecksHost) {}

  run({ deep, ids, tally }: CheckRequest): Promise<DownloadEntry[]> {
    const run = this.last.then(async () => {
      const { moved, checked } = await checkInSteps(this.host.among(ids), deep, this.host);
      if (tally) tally.checked += checked;
      return moved;
    });
    this.last = run.catch(() => []);
    return run;
  }
}

/** Which copies a check looks at (every one without ids), how closely, and where it counts them. */
export interface CheckRequest {
  deep: boolean;
  ids?: readonly string[];
  tally?: { checked: number };
}
