import { type DownloadView } from '../../common/bridge/downloads';
import { isDriveMissing } from '../../common/bridge/download-words';
import { describeExpiry, type JobRecord } from '../../common/bridge/jobs';
import { unavailableReason } from './job-files';
import { NAMED_BY_OWNER } from './result-copies';

type LostCopy = Pick<DownloadView, 'state' | 'origin' | 'reason' | 'savedPath' | 'jobId'>;
type ResultJob = Pick<JobRecord, 'phase' | 'resultUrl' | 'expiresAt' | 'summary'>;

/**
 * Whether a lost copy is fetched back by itself: the Library's and the archive's own copies while the
 * link lives, when the user's setting allows. A file its owner named (a campaign's, a batch's, an --out
 * file) waits to be asked for (NAMED_BY_OWNER says why); a copy on a drive that is missing is not lost,
 * and fetching it would write to the system disk in the drive's place.
 */
export function fetchedBack(copy: LostCopy, job: ResultJob | null, now: number, restoreLost: boolean): boolean {
  if (!restoreLost || job === null || job.resultUrl === null) return false;
  if (unavailableReason(job, now) !== null) return false;
  return !NAMED_BY_OWNER.has(copy.origin) && !isDriveMissing(copy.reason);
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : `${n} ${many}`);

/** "clip (path): deleted or moved; fetching it again, its link has 6 d 23 h left." */
function line(copy: LostCopy, job: ResultJob | null, now: number, back: boolean): string {
  const what = copy.state === 'missing' ? 'deleted or moved' : 'changed on disk';
  const name = `${job?.summary ?? copy.jobId} (${copy.savedPath ?? 'no path'})`;
  if (job === null) return `${name}: ${what}; it is no longer in the Library, so it cannot be fetched again.`;
  const expired = unavailableReason(job, now);
  if (expired !== null) return `${name}: ${what}, and it cannot be fetched again: ${expired}`;
  const left = job.expiresAt === null ? 'its link has no end date' : `its link has ${describeExpiry(job, now)}`;
  return back
    ? `${name}: ${what}; fetching it again, ${left}.`
    : `${name}: ${what}; fetch it again while the link lives (${left}).`;
}

/**
 * What the studio tells of copies found lost by a check: which ones, whether each comes back, and the time
 * its link has left. Copies on a missing drive are told as that drive, once. Null when nothing was lost.
 */
export function lostCopiesNotice(
  moved: readonly LostCopy[],
  job: (id: string) => ResultJob | null,
  now: number,
  restoreLost: boolean,
): { title: string; body: string } | null {
  const lost = moved.filter((c) => c.state === 'missing' || c.state === 'changed');
  if (lost.length === 0) return null;
  const drives = [...new Set(lost.filter((c) => isDriveMissing(c.reason)).map((c) => c.reason as string))];
  const rest = lost.filter((c) => !isDriveMissing(c.reason));
  if (rest.length === 0) return { title: `A drive holding saved copies is missing`, body: drives.join(' ') };
  const back = rest.filter((c) => fetchedBack(c, job(c.jobId), now, restoreLost));
  const title =
    back.length === rest.length
      ? `Fetching back ${plural(rest.length, 'a lost copy', 'lost copies')}`
      : `${plural(rest.length, 'A saved copy is', 'saved copies are')} no longer as saved`;
  const shown = rest.slice(0, 3).map((c) => line(c, job(c.jobId), now, back.includes(c)));
  const more = rest.length > 3 ? [`And ${rest.length - 3} more: the Library's Not saved filter lists them.`] : [];
  return { title, body: [...shown, ...more, ...drives].join('\n') };
}
