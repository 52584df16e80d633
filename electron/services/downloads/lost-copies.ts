import type { JobRecord } from '../../common/bridge/jobs';
import { stepOf } from '../../common/jobs/steps';
import { unavailableReason } from './job-files';
import { NAMED_BY_OWNER } from './result-copies';
import type { SavedCopy } from './saved-report';

type ResultJob = Pick<JobRecord, 'id' | 'phase' | 'resultUrl' | 'expiresAt' | 'purpose'>;

/** A lost copy to fetch back under its own folder and name. */
export interface CopyToRestore<J extends ResultJob = ResultJob> {
  job: J;
  copy: SavedCopy;
}

/**
 * A copy (or a result with none) that is not fetched back, and why. `counts` says whether the result is
 * then left with no verified copy on disk, which a run that restores must report as a failure; a copy
 * left as it is beside a verified one (changed by its user, or lost after its link expired) is only named.
 */
export interface CopyNotRestored<J extends ResultJob = ResultJob> {
  job: J;
  path: string | null;
  reason: string;
  counts: boolean;
}

export interface RestorePlan<J extends ResultJob = ResultJob> {
  restore: CopyToRestore<J>[];
  notRestored: CopyNotRestored<J>[];
}

/** A copy that comes back under its own name: deleted or moved, or changed in a file its owner named. */
const isLost = (copy: SavedCopy): boolean =>
  copy.state === 'missing' || (copy.state === 'changed' && NAMED_BY_OWNER.has(copy.origin));

/**
 * What `download --missing` without --out does with each job's copies: every lost copy goes back where it
 * was while the job's link works, whether or not another copy (the archive's, say) is still on disk; a
 * copy the user changed in a folder the studio chose is theirs and stays; a result never saved has no
 * place to go back to. Steps of something else (a campaign row's voiceover) are no results of their own.
 */
export function planRestore<J extends ResultJob>(
  jobs: readonly J[],
  copies: ReadonlyMap<string, readonly SavedCopy[]>,
  now: number,
): RestorePlan<J> {
  const plan: RestorePlan<J> = { restore: [], notRestored: [] };
  for (const job of jobs) {
    if (job.phase !== 'completed' || stepOf(job) !== null) continue;
    const mine = copies.get(job.id) ?? [];
    const lost = mine.filter(isLost);
    const kept = mine.filter((c) => c.state === 'changed' && !isLost(c));
    const verified = mine.some((c) => c.state === 'saved');
    const expired = unavailableReason(job, now);
    if (expired !== null) {
      // Nothing can fetch it again: named so the loss is known, not counted against the run.
      for (const copy of lost)
        plan.notRestored.push({
          job,
          path: copy.path,
          reason: `lost, and cannot come back: ${expired}`,
          counts: false,
        });
      continue;
    }
    // A copy whose drive is gone waits for the drive: fetched now, it would fill the empty mount point
    // on the system disk (or a command would wait for ever on the drive).
    const offline = lost.filter((c) => c.driveMissing);
    for (const copy of lost) if (!copy.driveMissing) plan.restore.push({ job, copy });
    for (const copy of offline)
      plan.notRestored.push({
        job,
        path: copy.path,
        reason: `its drive is missing (a write into ${copy.folder} would land on another disk), so nothing is written in its place; connect the drive and run this again`,
        counts: !verified && offline.length === lost.length,
      });
    const alone = !verified && lost.length === 0;
    for (const copy of kept)
      plan.notRestored.push({
        job,
        path: copy.path,
        reason: `changed on disk since it was saved, so it is left as it is${alone ? '; it was the only copy: give --out DIR to save a fresh one' : ''}`,
        counts: alone,
      });
    if (alone && kept.length === 0)
      plan.notRestored.push({
        job,
        path: null,
        reason: 'never saved, so it has no place to go back to; give --out DIR to save it',
        counts: true,
      });
  }
  return plan;
}
