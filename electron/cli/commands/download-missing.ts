import type { JobView } from '../../common/bridge/jobs';
import type { DownloadView, LostCopy } from '../../common/bridge/downloads';
import type { CliIo, ParsedArgs } from '../command';
import { planRestore, type CopyNotRestored } from '../../services/downloads/lost-copies';
import { missingResults } from '../../services/downloads/saved-report';
import { copiesOfJobs } from '../job-copies';
import type { StudioLink } from '../studio-link';

/** What one `download` run saves: jobs into --out, or with --missing alone lost copies back where they were. */
export interface SaveChoice {
  /** Jobs to save into --out. */
  jobs: JobView[];
  /** Lost copies to fetch back under their own folder and name, with where each was and what became of it. */
  back: { copy: LostCopy; path: string; state: 'missing' | 'changed' }[];
  /** What --missing names and leaves as it is, each with its reason. */
  notRestored: CopyNotRestored<JobView>[];
}

/**
 * --missing: from the record as the folder's owner holds it (this run's own services, or the open
 * studio's), each copy checked on disk now. With --out, the results left with no verified copy are saved
 * there; without it, every lost copy goes back where it was (see planRestore), even beside a copy
 * still on disk, so the words of --help hold for the deleted download of a result the archive also keeps.
 */
export async function chooseMissing(
  args: ParsedArgs,
  studio: StudioLink,
  list: readonly JobView[],
  narrowed: ReadonlySet<string>,
): Promise<SaveChoice> {
  const chosen = list.filter((j) => narrowed.has(j.id));
  const copies = await copiesOfJobs(
    studio,
    chosen.map((j) => j.id),
  );
  if (args.flags['--out'] !== undefined) {
    const lost = new Set(missingResults(chosen, copies, Date.now()).map((m) => m.job.id));
    return { jobs: chosen.filter((j) => lost.has(j.id)), back: [], notRestored: [] };
  }
  const plan = planRestore(chosen, copies, Date.now());
  return {
    jobs: [],
    back: plan.restore.map(({ job, copy }) => ({
      copy: { jobId: job.id, downloadId: copy.downloadId, folder: copy.folder, relativeName: copy.relativeName },
      path: copy.path,
      state: copy.state === 'changed' ? 'changed' : 'missing',
    })),
    notRestored: plan.notRestored,
  };
}

/** Names, before fetching, each copy that goes back and what became of it. */
export function sayRestoring(io: CliIo, back: SaveChoice['back']): void {
  for (const { path, state } of back)
    io.err(`Restoring ${path}: ${state === 'missing' ? 'deleted or moved since it was saved' : 'changed on disk'}.`);
}

/** Lost copies asked back a thousand at a time: each call's paths stay well under a host's body limit. */
export async function restoreInParts(studio: StudioLink, copies: readonly LostCopy[]): Promise<DownloadView[]> {
  const queued: DownloadView[] = [];
  for (let at = 0; at < copies.length; at += 1000)
    queued.push(...(await studio.call('downloads.restore', copies.slice(at, at + 1000))));
  return queued;
}

/** Each copy named and left as it is, as a line of the JSON report. */
export function notRestoredEntries(left: readonly CopyNotRestored<JobView>[]) {
  return left.map((n) => ({
    jobId: n.job.id,
    // "skipped": the result has no verified copy after this run; "left": a copy named beside one that is.
    state: n.counts ? 'skipped' : 'left',
    path: n.path,
    reason: n.reason,
    bytes: 0,
  }));
}
