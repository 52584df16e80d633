import type { JobView } from '../../common/bridge/jobs';
import { fetchToFile, FinalDownloadError } from '../../services/downloads/fetch-to-file';
import { ffprobeVerifier } from '../../services/downloads/verify';
import type { CliIo } from '../command';

/** Saves a finished job's result to `out` (a .part first, checked with ffprobe, then renamed). */
export async function saveResult(job: JobView, out: string, io: CliIo): Promise<void> {
  if (!job.resultUrl) throw new Error('the job has no result link');
  const verify = ffprobeVerifier();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await fetchToFile({ url: job.resultUrl, target: out, validators: null, verify });
      return;
    } catch (error) {
      if (error instanceof FinalDownloadError || attempt >= 3) throw error;
      io.err(`Download interrupted (${(error as Error).message}); trying again…`);
    }
  }
}
