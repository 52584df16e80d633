import type { DownloadEntry } from '../../common/bridge/downloads';
import type { JobRecord } from '../../common/bridge/jobs';
import { checkCopy } from './copy-check';
import { unavailableReason } from './job-files';
import { stepOf } from '../../common/jobs/steps';
import { NAMED_BY_OWNER } from './result-copies';
import type { QueueReader } from './queue-records';
import { MissingDrives } from './drives';

/** One copy of a job's result as a script sees it. */
export interface SavedCopy {
  downloadId: string;
  /** Checked now: on disk as written, gone, or other bytes. */
  state: 'saved' | 'missing' | 'changed';
  path: string;
  folder: string;
  relativeName: string;
  bytes: number;
  sha256: string | null;
  origin: DownloadEntry['origin'];
  /** When it was saved (or last changed state). */
  savedAt: number;
  /** Why a missing copy cannot come back where it was: its folder's drive is gone (see MissingDrives). */
  driveMissing?: string | null;
}

/**
 * Every saved copy of these jobs, each checked on disk now: the downloads the folder's owner has (`live`,
 * asked of it for these jobs, since its record is written after it announces a change) and those of the
 * command line's old queue, which earlier versions kept beside it. Only these jobs' entries are read (by
 * job), so a folder of a million saved copies costs a page of jobs no more than a folder of none.
 */
export async function savedCopiesIn(
  recorded: QueueReader,
  jobIds: readonly string[],
  live?: readonly DownloadEntry[],
): Promise<Map<string, SavedCopy[]>> {
  // The record as its owner holds it now when it was asked (`live`: its last changes may still be on
  // their way to the database); the command line's old queue is read until its copies are adopted into
  // the record (same ids).
  const entries = [...(live ?? (await recorded.ofJobs(jobIds, 'studio'))), ...(await recorded.ofJobs(jobIds, 'cli'))];
  const out = new Map<string, SavedCopy[]>();
  const seen = new Set<string>();
  // Read only (stat): a copy missing because its drive is gone must not be fetched into the empty folder.
  const drives = new MissingDrives(
    () => entries,
    () => undefined,
  );
  for (const entry of entries) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    if (entry.savedPath === null || (entry.state !== 'saved' && entry.state !== 'missing' && entry.state !== 'changed'))
      continue;
    const check = await checkCopy(entry, { deep: false });
    const drive = check.state === 'missing' ? await drives.check(entry.folder) : null;
    const copy: SavedCopy = {
      downloadId: entry.id,
      state: check.state,
      path: entry.savedPath,
      folder: entry.folder,
      relativeName: entry.relativeName,
      bytes: entry.bytes,
      sha256: entry.sha256,
      origin: entry.origin,
      savedAt: entry.updatedAt,
      // Only when it holds: the JSON of `jobs list` names it then, and is as before otherwise.
      ...(drive !== null && { driveMissing: drive }),
    };
    out.set(entry.jobId, [...(out.get(entry.jobId) ?? []), copy]);
  }
  return out;
}

type CheckedEntry = Pick<DownloadEntry, 'state' | 'savedPath' | 'bytes' | 'sha256' | 'mtimeMs'>;

/**
 * The record's entries with each copy's state checked on disk now, as savedCopiesIn checks them: the
 * owner's last check may predate a file deleted or rewritten since. Entries that are not copies stay as they are.
 */
export async function checkedOnDisk<E extends CheckedEntry>(entries: readonly E[]): Promise<E[]> {
  const out: E[] = [];
  // One file at a time: a copy whose modification time moved is hashed whole, and thousands at once would not be.
  for (const entry of entries) {
    const isCopy = entry.state === 'saved' || entry.state === 'missing' || entry.state === 'changed';
    out.push(
      entry.savedPath !== null && isCopy ? { ...entry, state: (await checkCopy(entry, { deep: false })).state } : entry,
    );
  }
  return out;
}

/** What telling whether a job's result can still be fetched needs (a ledger record or a job view has it). */
type ResultJob = Pick<JobRecord, 'id' | 'phase' | 'resultUrl' | 'expiresAt' | 'purpose'>;

/** A paid result with no verified copy anywhere, and the newest copy it lost, if it had one. */
export interface MissingResult<J extends ResultJob = ResultJob> {
  job: J;
  lost: SavedCopy | null;
}

/**
 * Completed jobs whose link still works and that have no copy on disk as written; a step of something
 * else (a campaign row's voiceover, a scene's) is not a result of its own and is left out.
 */
export function missingResults<J extends ResultJob>(
  jobs: readonly J[],
  copies: Map<string, SavedCopy[]>,
  now: number,
): MissingResult<J>[] {
  const out: MissingResult<J>[] = [];
  for (const job of jobs) {
    if (unavailableReason(job, now) !== null || stepOf(job) !== null) continue;
    const mine = copies.get(job.id) ?? [];
    if (mine.some((c) => c.state === 'saved')) continue;
    // A missing copy first; a changed one is fetched back in its place only when its owner named it.
    const lost = mine
      .filter((c) => c.state === 'missing' || (c.state === 'changed' && NAMED_BY_OWNER.has(c.origin)))
      .sort((a, b) => Number(b.state === 'missing') - Number(a.state === 'missing') || b.savedAt - a.savedAt);
    out.push({ job, lost: lost[0] ?? null });
  }
  return out;
}
