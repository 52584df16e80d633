import { resolve } from 'node:path';
import type { JobView } from '../../common/bridge/jobs';
import type { CliIo } from '../command';
import type { StudioLink } from '../studio-link';

/**
 * Saves a finished job's result as `out` through the studio's verified download (a .part, its length,
 * ffprobe, the SHA-256, then the rename), which records the copy with the others: the Library, `jobs
 * show` and `download --missing` know it, with a studio open or not. Answers the saved path.
 */
export async function saveResult(studio: StudioLink, job: JobView, out: string, io: CliIo): Promise<string> {
  const copy = await studio.call('downloads.saveCopy', { jobId: job.id, path: resolve(io.cwd, out), origin: 'cli' });
  if (copy.state !== 'saved' || copy.savedPath === null)
    throw new Error(`Not saved: ${copy.reason ?? `the copy is ${copy.state}`}`);
  return copy.savedPath;
}
