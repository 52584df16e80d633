import { resolve } from 'node:path';
import { JOB_KINDS, MAX_PAGE_JOBS, type JobFilter, type JobKind, type JobView } from '../../common/bridge/jobs';
import { type DownloadView } from '../../common/bridge/downloads';
import { isHeld } from '../../common/bridge/download-words';
import { withStudio, sayWhere } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { JSON_OPTION } from '../common-options';
import { ProgressBars } from './progress-bars';
import { matchJob } from '../../common/jobs/job-id';
import type { CopyNotRestored } from '../../services/downloads/lost-copies';
import type { StartResult } from '../../services/downloads/downloads-service';
import type { StudioLink } from '../studio-link';
import { interruptedWords } from './download-interrupt';
import { chooseMissing, notRestoredEntries, restoreInParts, sayRestoring, type SaveChoice } from './download-missing';

/** Downloads the studio is still working on; every other state is where this command stops following. */
const UNDER_WAY: ReadonlySet<DownloadView['state']> = new Set(['queued', 'downloading']);

/** "2d", "12h", "30m", "45s" → milliseconds. */
export function parseSince(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(value.trim());
  if (!match) throw new UsageError(`--since wants a number and a unit, like 2d, 12h or 30m (got "${value}")`);
  return Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
}

/** The jobs named by id (or unique prefix), or every job matching --all / --kind / --since. */
export function chooseJobs(jobs: readonly JobView[], args: ParsedArgs, now: number): JobView[] {
  const kind = flag(args, '--kind');
  if (kind !== undefined && !(JOB_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`--kind must be one of ${JOB_KINDS.join(', ')}`);
  const since = flag(args, '--since');
  const after = since === undefined ? -Infinity : now - parseSince(since);
  const filtered = (list: readonly JobView[]) =>
    list.filter((j) => (kind === undefined || j.kind === (kind as JobKind)) && j.createdAt >= after);
  if (args.positional.length > 0) {
    if (args.flags['--all']) throw new UsageError('Give job ids or --all, not both');
    return filtered(
      args.positional.map((key) => {
        const found = matchJob(jobs, key);
        if ('problem' in found) throw new UsageError(found.problem);
        return found.job;
      }),
    );
  }
  if (!args.flags['--all'] && kind === undefined && since === undefined)
    throw new UsageError('Give job ids, or --all / --kind / --since to choose jobs');
  // Chosen by filter: only jobs with a result to save (failed or running ones are not "requested files").
  return filtered(jobs).filter((j) => j.phase === 'completed');
}

/** The jobs whose id or service id starts with `key`, among which matchJob picks (never the whole ledger). */
async function jobsNamed(studio: StudioLink, key: string): Promise<JobView[]> {
  const wanted = key.trim();
  if (wanted === '' || wanted.length > 100) return [];
  return (await studio.call('jobs.page', { limit: MAX_PAGE_JOBS, filter: { idStartsWith: wanted } })).jobs;
}

/** Every job a filter leaves, newest first (as the ledger lists them), asked of the studio a page at a time. */
async function jobsLeftBy(studio: StudioLink, filter: JobFilter): Promise<JobView[]> {
  const out: JobView[] = [];
  let after: string | undefined;
  do {
    const page = await studio.call('jobs.page', {
      filter,
      limit: MAX_PAGE_JOBS,
      ...(after ? { after } : {}),
    });
    out.push(...page.jobs);
    after = page.next ?? undefined;
  } while (after);
  return out;
}

/**
 * The jobs chooseJobs would choose from every job, asked of the studio by what they are: each id's
 * candidates by its start, or the completed jobs of --kind and --since by the database's filter.
 */
export async function findJobs(studio: StudioLink, args: ParsedArgs, now: number): Promise<JobView[]> {
  // The words' checks first (a wrong --kind or no choice at all), before anything is asked.
  chooseJobs([], { ...args, positional: [], flags: { ...args.flags, '--all': true } }, now);
  if (args.positional.length > 0) {
    if (args.flags['--all']) throw new UsageError('Give job ids or --all, not both');
    const named = await Promise.all(args.positional.map((key) => jobsNamed(studio, key)));
    const candidates = [...new Map(named.flat().map((j) => [j.id, j])).values()];
    return chooseJobs(candidates, args, now);
  }
  if (!args.flags['--all'] && flag(args, '--kind') === undefined && flag(args, '--since') === undefined)
    throw new UsageError('Give job ids, or --all / --kind / --since to choose jobs');
  const kind = flag(args, '--kind') as JobKind | undefined;
  const since = flag(args, '--since');
  const jobs = await jobsLeftBy(studio, {
    phases: ['completed'],
    ...(kind !== undefined ? { kinds: [kind] } : {}),
    ...(since !== undefined ? { createdFrom: Math.max(0, Math.ceil(now - parseSince(since))) } : {}),
  });
  return chooseJobs(jobs, args, now);
}

/** The jobs to save: those chosen, or with --missing what has no verified copy or lost one (chooseMissing). */
async function chooseToSave(args: ParsedArgs, studio: StudioLink): Promise<SaveChoice> {
  const now = Date.now();
  if (args.flags['--missing'] !== true) return { jobs: await findJobs(studio, args, now), back: [], notRestored: [] };
  const chosen = await findJobs(studio, { ...args, flags: { ...args.flags, '--all': true } }, now);
  return chooseMissing(args, studio, chosen, new Set(chosen.map((j) => j.id)));
}

/** Prints what was saved and what was not; exit 0 only when every requested file is saved. */
function reportSaved(
  args: ParsedArgs,
  io: CliIo,
  requested: number,
  finals: readonly DownloadView[],
  skipped: StartResult['skipped'],
  /** Set when Ctrl-C ended the run: who goes on with what it left. */
  interrupted: { own: boolean; kind: string } | null,
  left: readonly CopyNotRestored<JobView>[] = [],
): number {
  if (args.flags['--json'] === true) {
    io.out(
      JSON.stringify(
        [
          ...finals.map((d) => ({
            jobId: d.jobId,
            state: d.state,
            path: d.savedPath,
            reason: d.reason,
            bytes: d.bytes,
          })),
          ...skipped.map((s) => ({ jobId: s.jobId, state: 'skipped', path: null, reason: s.reason, bytes: 0 })),
          ...notRestoredEntries(left),
        ],
        null,
        2,
      ),
    );
  } else {
    for (const d of finals) {
      if (d.state === 'saved') io.out(d.savedPath ?? '');
      else io.err(`${d.jobId.slice(0, 8)}: ${d.state}${d.reason ? `: ${d.reason}` : ''}`);
    }
    for (const s of skipped) io.err(`${s.jobId.slice(0, 8)}: skipped: ${s.reason}`);
    for (const n of left) io.err(`${n.job.id.slice(0, 8)}: not restored${n.path ? `: ${n.path}` : ''}: ${n.reason}.`);
  }
  const saved = finals.filter((d) => d.state === 'saved').length;
  const unsaved = requested - saved;
  if (interrupted) io.err(interruptedWords(finals, requested, interrupted));
  else if (unsaved > 0) io.err(`${saved} of ${requested} saved; ${unsaved} not.`);
  return unsaved === 0 && interrupted === null ? EXIT.ok : EXIT.failed;
}

/**
 * `studio download [JOB_ID…] [--all] [--kind KIND] [--since 2d] --out DIR [--template T] [--json]`.
 * Run again after an interruption, it resumes partial files and skips saved ones. Exit 0 only when
 * every requested file is saved.
 */
export const downloadCommand: CliCommand = {
  name: 'download',
  summary: 'Save finished results into a folder with templated names (resumes an interrupted run)',
  arguments: [{ name: 'JOB_ID', help: 'jobs to save (ids or their starts)', variadic: true }],
  options: [
    { name: '--all', help: 'every completed job' },
    { name: '--kind', value: 'KIND', choices: JOB_KINDS, help: 'only jobs of this kind' },
    { name: '--since', value: 'AGE', help: 'only jobs made within this time: 30m, 12h, 2d' },
    {
      name: '--missing',
      help: "lost copies of paid results whose link works: each copy deleted or moved since it was saved goes back where it was, even beside a copy kept elsewhere (the archive's), as does one changed in a file a batch, a campaign or --out FILE named; each copy not restored is named with why. With --out DIR, each such result with no verified copy is saved there instead",
    },
    { name: '--out', value: 'DIR', help: 'the folder to save into (required, except with --missing)' },
    { name: '--template', value: 'T', help: "file names, from the job's fields" },
    JSON_OPTION,
  ],
  async run(args, io) {
    const out = flag(args, '--out');
    const missing: boolean = args.flags['--missing'] === true;
    if (missing && (args.positional.length > 0 || args.flags['--all']))
      throw new UsageError('--missing chooses the jobs itself; give no job ids and no --all');
    if (!out && !missing) throw new UsageError('--out DIR is required: the folder to save into');
    // Beside a studio that has the data folder open, its download manager saves them (its Library shows them).
    // Its jobs are the folder's: a folder that is not a data folder is named, never answered "nothing to save".
    return withStudio(args, io, 'writes', (studio) => saveResults(args, io, studio), {
      sendsWork: false,
      needsRecords: true,
    });
  },
};

/**
 * Chooses the jobs from the studio's Library and has its download manager fetch them (the Library's
 * Downloads shows them as it does its own), printing the progress here and the outcome. Saved at the
 * command line's word, so the folder and template the user last chose in the Library stay remembered.
 * An interrupted run of its own pauses its downloads, and running it again resumes the partial files;
 * beside a studio, they go on there.
 */
async function saveResults(args: ParsedArgs, io: CliIo, studio: StudioLink): Promise<number> {
  const json = args.flags['--json'] === true;
  const out = flag(args, '--out');
  const { jobs, back, notRestored } = await chooseToSave(args, studio);
  if (jobs.length === 0 && back.length === 0 && notRestored.length === 0) {
    // Nothing to save is an answer, not a failure: a script gets an empty list.
    if (json) io.out('[]');
    else
      io.err(
        args.flags['--missing'] === true
          ? 'Nothing is lost: every paid result whose link works has its copies on disk as saved.'
          : 'No jobs match: nothing to save.',
      );
    return EXIT.ok;
  }
  sayWhere(studio, args, io, 'Saving', '; its Library shows the downloads');
  // Every change is kept from before the first start, so none arriving ahead of its answer is lost.
  const latest = new Map<string, DownloadView>();
  let wake: () => void = () => {};
  const stop = studio.on('downloads.changed', (view) => {
    latest.set(view.id, view);
    wake();
  });
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    wake();
  };
  process.once('SIGINT', interrupt);
  try {
    let result: StartResult;
    if (out) {
      result = await studio.call('downloads.start', {
        jobIds: jobs.map((j) => j.id),
        folder: resolve(io.cwd, out),
        template: flag(args, '--template'),
        origin: 'cli',
      });
    } else {
      // --missing without --out: each lost copy goes back under its own folder and name.
      if (!json) sayRestoring(io, back);
      const queued =
        back.length > 0
          ? await restoreInParts(
              studio,
              back.map((b) => b.copy),
            )
          : [];
      result = { queued, skipped: [], already: [], copies: 0 };
    }
    for (const view of result.queued) if (!latest.has(view.id)) latest.set(view.id, view);
    const mine = () => result.queued.map((view) => latest.get(view.id) as DownloadView);
    const bars = !json && process.stderr.isTTY ? new ProgressBars((text) => process.stderr.write(text)) : null;
    // One held by a full disk or a missing drive is not followed: nothing moves until there is room or
    // the drive is back, which a script waiting on this command would wait for with no word, for ever.
    while (!interrupted && mine().some((view) => UNDER_WAY.has(view.state) && !isHeld(view))) {
      bars?.draw(mine());
      // The next change, or the studio gone (its reason ends the command).
      await Promise.race([new Promise<void>((done) => (wake = done)), studio.lost]);
    }
    if (interrupted) {
      // Read afresh: a file whose last byte came in just before Ctrl-C may be on disk already, its news
      // still on the way; one with every byte in is let finish (its checks and rename take a moment).
      // Asked by job, a page at a time: a download saved a moment ago is no longer among those under way.
      const jobIds = [...new Set(mine().map((view) => view.jobId))];
      for (let at = 0; at < jobIds.length; at += MAX_PAGE_JOBS)
        for (const view of await studio.call('downloads.ofJobs', jobIds.slice(at, at + MAX_PAGE_JOBS)).catch(() => []))
          if (latest.has(view.id)) latest.set(view.id, view);
      const finishing = (v: DownloadView) =>
        v.state === 'downloading' && v.totalBytes !== null && v.bytes >= v.totalBytes;
      while (mine().some(finishing)) await Promise.race([new Promise<void>((done) => (wake = done)), studio.lost]);
    }
    // This run's own downloads stop where they are; the next run resumes the partial files.
    if (interrupted && studio.own)
      for (const view of mine())
        if (UNDER_WAY.has(view.state)) {
          const paused = await studio.call('downloads.pause', view.id).catch(() => null);
          if (paused) latest.set(paused.id, paused);
        }
    bars?.draw(mine());
    bars?.end();
    // A copy named and left beside a verified one does not fail the run; a result left with none does.
    const requested = out ? jobs.length : back.length + notRestored.filter((n) => n.counts).length;
    const stopped = interrupted ? { own: studio.own, kind: studio.kind } : null;
    const code = reportSaved(args, io, requested, mine(), result.skipped, stopped, notRestored);
    if (!interrupted && !json && mine().some(isHeld))
      io.err(
        studio.own
          ? 'Their partial files are kept: once there is room (or the drive is back), run the same command again to finish them.'
          : `The ${studio.kind} that has the data folder open goes on with them once there is room (or the drive is back).`,
      );
    return code;
  } finally {
    process.off('SIGINT', interrupt);
    stop();
  }
}
