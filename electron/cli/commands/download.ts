import { resolve } from 'node:path';
import { JOB_KINDS, type JobKind, type JobRecord, type JobView } from '../../common/bridge/jobs';
import type { DownloadView } from '../../common/bridge/downloads';
import { SANDBOX_CONNECTION_ID } from '../../common/bridge/connections';
import { cliQueueFile } from '../../services/downloads/queue-file';
import { DownloadsService } from '../../services/downloads/downloads-service';
import { ffprobeVerifier } from '../../services/downloads/verify';
import { ProjectLibrary } from '../../services/projects/project-library';
import { openCliHost } from '../cli-host';
import type { CliHost } from '../cli-host-types';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { JSON_OPTION } from '../common-options';
import { ProgressBars } from './progress-bars';
import { matchJob } from '../../common/jobs/job-id';
import { missingResults, savedCopiesIn, type MissingResult } from '../../services/downloads/saved-report';
import { defaultDataDir } from '../../services/host/data-dir';
import { reachOwnerHost } from '../owner-host';
import { downloadThroughOwner, type SaveChoice } from './download-owner';
import type { StartResult } from '../../services/downloads/downloads-service';

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

function serviceFor(host: CliHost): DownloadsService {
  let projects: ProjectLibrary | undefined;
  return new DownloadsService({
    dataDir: host.dataDir,
    // Its own queue: the app may be running on the same data folder with its queue open.
    queueFile: cliQueueFile(host.dataDir),
    createStore: host.createStore,
    log: host.log,
    job: (id) => host.engine.record(id),
    projectName: async (id) => {
      projects ??= new ProjectLibrary({ dataDir: host.dataDir, createStore: host.createStore });
      return projects.nameOf(id);
    },
    // A captioned project's video gets its .srt and .vtt beside it, as the studio's downloads do.
    project: async (id) => {
      projects ??= new ProjectLibrary({ dataDir: host.dataDir, createStore: host.createStore });
      return projects.read(id);
    },
    // The ffprobe chosen in Settings, as the studio's downloads use it.
    verify: ffprobeVerifier(() => host.settings.get()),
    // The sandbox's result links open only while it runs; this command may be the first to need it.
    sandbox: () => host.connections.client(SANDBOX_CONNECTION_ID),
  });
}

/** The jobs to save: those chosen, or with --missing the chosen ones with no verified copy on disk. */
async function chooseToSave(
  args: ParsedArgs,
  list: readonly JobView[],
  records: () => readonly JobRecord[],
  dataDir: string,
): Promise<{ jobs: JobView[]; lost: MissingResult[] }> {
  if (args.flags['--missing'] !== true) return { jobs: chooseJobs(list, args, Date.now()), lost: [] };
  const lost = missingResults(records(), await savedCopiesIn(dataDir), Date.now());
  const narrowed = new Set(
    chooseJobs(list, { ...args, flags: { ...args.flags, '--all': true } }, Date.now()).map((j) => j.id),
  );
  return { jobs: list.filter((j) => narrowed.has(j.id) && lost.some((m) => m.job.id === j.id)), lost };
}

const dataDirOf = (args: ParsedArgs, io: CliIo): string => flag(args, '--data-dir') ?? defaultDataDir(io.env);

/** Prints what was saved and what was not; exit 0 only when every requested file is saved. */
function reportSaved(
  args: ParsedArgs,
  io: CliIo,
  requested: number,
  finals: readonly DownloadView[],
  skipped: StartResult['skipped'],
  interrupted: boolean,
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
  }
  const saved = finals.filter((d) => d.state === 'saved').length;
  const unsaved = requested - saved;
  if (interrupted) io.err('Interrupted; run the same command again to resume the partial files.');
  else if (unsaved > 0) io.err(`${saved} of ${requested} saved; ${unsaved} not.`);
  return unsaved === 0 && !interrupted ? EXIT.ok : EXIT.failed;
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
      help: 'every paid result whose link works and that has no verified copy on disk; a lost copy goes back where it was unless --out is given',
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
    const choice: SaveChoice = {
      choose: (list, records) => chooseToSave(args, list, records, dataDirOf(args, io)),
      report: (requested, finals, skipped, interrupted) =>
        reportSaved(args, io, requested, finals, skipped, interrupted),
      // Nothing to save is an answer, not a failure: a script gets an empty list.
      nothing() {
        if (args.flags['--json'] === true) io.out('[]');
        else
          io.err(
            missing
              ? 'Every paid result whose link works has a verified copy on disk.'
              : 'No jobs match: nothing to save.',
          );
        return EXIT.ok;
      },
    };
    // Beside a studio that has the data folder open, its download manager saves them (its Library shows them).
    const owner = await reachOwnerHost(args, io, { sendsWork: false });
    if (owner) return downloadThroughOwner(args, io, owner, dataDirOf(args, io), choice).finally(() => owner.close());
    const host = openCliHost(args, io);
    host.engine.start({ poll: false });
    const service = serviceFor(host);
    const json = args.flags['--json'] === true;
    const bars = !json && process.stderr.isTTY ? new ProgressBars((text) => process.stderr.write(text)) : null;
    let interrupted = false;
    const stop = () => {
      interrupted = true;
      void service.dispose();
    };
    process.once('SIGINT', stop);
    try {
      const { jobs, lost } = await choice.choose(host.engine.list(), () => host.engine.records());
      if (jobs.length === 0) return choice.nothing();
      let result: StartResult;
      if (out) {
        result = await service.start({
          jobIds: jobs.map((j) => j.id),
          folder: resolve(io.cwd, out),
          template: flag(args, '--template'),
          origin: 'cli',
        });
      } else {
        // --missing without --out: each lost copy goes back under its own folder and name.
        const chosen = lost.filter((m) => jobs.some((j) => j.id === m.job.id));
        const back = chosen.flatMap((m) =>
          m.lost ? [{ jobId: m.job.id, folder: m.lost.folder, relativeName: m.lost.relativeName }] : [],
        );
        result = {
          queued: await service.restore(back, 'cli'),
          skipped: chosen
            .filter((m) => !m.lost)
            .map((m) => ({
              jobId: m.job.id,
              reason: 'Never saved, so it has no place to go back to; give --out DIR to save it.',
            })),
          already: [],
          copies: 0,
        };
      }
      const ids = new Set(result.queued.map((d) => d.id));
      const ticker = bars
        ? setInterval(() => bars.draw(service.manager.list().filter((d) => ids.has(d.id))), 200)
        : undefined;
      await service.whenIdle();
      if (ticker) clearInterval(ticker);
      const finals: DownloadView[] = service.manager.list().filter((d) => ids.has(d.id));
      bars?.draw(finals);
      bars?.end();
      return choice.report(jobs.length, finals, result.skipped, interrupted);
    } finally {
      process.off('SIGINT', stop);
      await service.dispose();
      await host.close();
    }
  },
};
