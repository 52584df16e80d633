import type { JobScope } from '../jobs/job-scope';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { CopyOrigin, DownloadEntry } from '../../common/bridge/downloads';
import type { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import { checkCopy, hashFile } from './copy-check';
import type { DownloadManager } from './download-manager';
import { newEntry } from './queue-names';

/** A copy an earlier version kept a note of somewhere else (a campaign's row, a batch's Save). */
export interface LegacyCopy {
  /** The job, when the note names it; else the job whose result link is `url`. */
  jobId?: string | null;
  url: string;
  path: string;
  savedBy: CopyOrigin;
  savedAt: number;
}

export interface AdoptDeps {
  manager: DownloadManager;
  /** The ledger's jobs in a scope (a copy's job by its id or its link), newest first. */
  jobs(scope: JobScope): readonly JobRecord[];
  /** ffprobe: the file is real media; throws otherwise. */
  verify?(path: string): Promise<void>;
  log: Logger;
}

/**
 * Brings copies that earlier versions recorded elsewhere into the one record: the command line's own
 * queue (`cli-queue.json`, read, never written again), each campaign row's file and each batch Save's.
 * Each file is checked as it is adopted: one still there and readable as media is saved (its hash taken
 * now), one gone is recorded missing, one no longer media (or no longer the bytes its queue hashed) is
 * recorded changed, so every screen says so. A copy already recorded is left alone, so running it again
 * (every start) adopts nothing twice. Answers how many copies were adopted.
 */
export async function adoptCopies(
  deps: AdoptDeps,
  legacy: { queue: readonly DownloadEntry[]; copies: readonly LegacyCopy[] },
): Promise<number> {
  // Read afresh each time (the job's entries, by the record's index): a campaign going on at start may
  // record a row's copy meanwhile.
  const recorded = (jobId: string, path: string) =>
    deps.manager.forJob(jobId).some((d) => d.savedPath === path || resolve(d.folder, d.relativeName) === path);
  const adopted: DownloadEntry[] = [];
  for (const entry of legacy.queue) {
    if (entry.savedPath === null || !['saved', 'missing', 'changed'].includes(entry.state)) continue;
    if (deps.manager.lookup.find(entry.id) || recorded(entry.jobId, entry.savedPath)) continue;
    const check = await checkCopy(entry, { deep: true });
    adopted.push({ ...entry, state: check.state, sha256: check.sha256, mtimeMs: check.mtimeMs });
  }
  for (const copy of legacy.copies) {
    const path = resolve(copy.path);
    // Newest first: of two jobs with one link, the later one.
    const job = deps.jobs(copy.jobId ? { ids: [copy.jobId] } : { resultUrl: copy.url })[0];
    if (!job || recorded(job.id, path) || adopted.some((d) => d.jobId === job.id && d.savedPath === path)) continue;
    const entry = newEntry(
      { jobId: job.id, url: copy.url, folder: dirname(path), relativeName: basename(path), origin: copy.savedBy },
      dirname(path),
      basename(path),
      copy.savedAt,
    );
    adopted.push({ ...entry, ...(await look(path, deps.verify)), savedPath: path });
  }
  await deps.manager.adopt(adopted);
  if (adopted.length > 0)
    deps.log.info('saved copies adopted into the record', {
      copies: adopted.map((d) => ({ job: d.jobId, path: d.savedPath, state: d.state, by: d.origin })),
    });
  return adopted.length;
}

/** What a file found at an adopted copy's path is, as record fields. */
async function look(path: string, verify: AdoptDeps['verify']): Promise<Partial<DownloadEntry>> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile())
    return { state: 'missing', reason: `The saved copy is no longer at ${path}.`, bytes: 0, totalBytes: null };
  const media = await (verify?.(path) ?? Promise.resolve()).then(
    () => true,
    () => false,
  );
  return {
    state: media ? 'saved' : 'changed',
    // A file that is not the result has no hash of the result to compare with: this one never matches,
    // so a later check keeps it "changed" rather than taking its bytes as the copy's.
    sha256: media ? await hashFile(path) : 'not-the-result',
    reason: media ? null : `The file at ${path} is not the result saved there (it cannot be read as media).`,
    bytes: info.size,
    totalBytes: info.size,
    mtimeMs: info.mtimeMs,
    verifiedAt: media ? Date.now() : null,
  };
}
