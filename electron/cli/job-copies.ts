import type { DownloadEntry } from '../common/bridge/downloads';
import { MAX_PAGE_JOBS } from '../common/bridge/job-pages';
import { savedCopiesIn, type SavedCopy } from '../services/downloads/saved-report';
import { FolderQueueReader } from '../services/records/sqlite-downloads';
import type { StudioLink } from './studio-link';

/**
 * The saved copies of these jobs, each checked on disk now, as the studio behind the link holds them
 * (the folder's owner, or this run's own services): asked by job, a page of jobs at a time, never as the
 * whole record of copies.
 */
export async function copiesOfJobs(studio: StudioLink, jobIds: readonly string[]): Promise<Map<string, SavedCopy[]>> {
  const live: DownloadEntry[] = [];
  for (let from = 0; from < jobIds.length; from += MAX_PAGE_JOBS)
    live.push(...(await studio.call('downloads.ofJobs', jobIds.slice(from, from + MAX_PAGE_JOBS))));
  return savedCopiesIn(new FolderQueueReader(studio.dataDir), jobIds, live);
}
