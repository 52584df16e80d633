import {
  JOB_KIND_LABELS,
  JOB_PHASE_LABELS,
  describeCharge,
  describeExpiry,
  formatDuration,
  MAX_PAGE_JOBS,
  type JobView,
} from '../../common/bridge/jobs';
import { isFinalPhase } from '../../common/bridge';
import { withStudio } from '../cli-host';
import { waitForJob } from '../job-wait';
import type { StudioLink } from '../studio-link';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { jobsListCommand } from './jobs-list';
import { JSON_OPTION } from '../common-options';
import { matchJob } from '../../common/jobs/job-id';
import type { SavedCopy } from '../../services/downloads/saved-report';
import { copiesOfJobs } from '../job-copies';
import { stepOf } from '../../common/jobs/steps';

/**
 * The job a command names, through the studio: the one that has the folder open, or this run's own,
 * read-only beside one. Only the jobs whose id starts as typed are asked for, never the whole ledger.
 */
function withJobs(
  args: ParsedArgs,
  io: CliIo,
  work: (studio: StudioLink, jobs: JobView[]) => Promise<number>,
): Promise<number> {
  return withStudio(args, io, 'reads', async (studio) => work(studio, await jobsNamed(studio, args.positional[0])), {
    sendsWork: false,
    needsRecords: true,
  });
}

/** The jobs whose id or service id starts with `key`, among which matchJob picks. */
async function jobsNamed(studio: StudioLink, key = ''): Promise<JobView[]> {
  const wanted = key.trim();
  if (wanted === '' || wanted.length > 100) return [];
  return (await studio.call('jobs.page', { limit: MAX_PAGE_JOBS, filter: { idStartsWith: wanted } })).jobs;
}

/** A job by the studio's id or the service's (files are named with it), in full or by a unique start. */
function findJob(studio: StudioLink, jobs: readonly JobView[], key: string | undefined): JobView {
  const found = matchJob(jobs, key ?? '');
  if ('problem' in found) throw new UsageError(`${found.problem} in ${studio.dataDir}`);
  return found.job;
}

/** "saved /path", "missing /path (archive)": each saved copy as checked on disk now. */
function formatCopies(copies: readonly SavedCopy[], job: JobView): string[] {
  const step = stepOf(job);
  if (copies.length === 0)
    return [`  Saved:       ${step ? `not on its own: ${step}` : 'nowhere (only on the service until it expires)'}`];
  return copies.map(
    (c, i) =>
      `  ${i === 0 ? 'Saved:      ' : '            '} ${c.state === 'saved' ? '' : `${c.state.toUpperCase()}${c.driveMissing ? ' (its drive is missing)' : ''} `}${c.path}${c.origin === 'library' ? '' : ` (${c.origin})`}`,
  );
}

export function formatDetails(job: JobView, now: number): string {
  const lines = [
    `Job ${job.id}`,
    `  Kind:        ${JOB_KIND_LABELS[job.kind]}`,
    `  Status:      ${JOB_PHASE_LABELS[job.phase]}${job.remoteStatus !== null ? ` (service status ${job.remoteStatus})` : ''}`,
    `  Request:     ${job.summary}`,
    `  Connection:  ${job.connectionName}`,
    `  Service id:  ${job.remoteId ?? '— (the service never answered with one)'}`,
    `  Created:     ${new Date(job.createdAt).toISOString()} (${formatDuration(now - job.createdAt)} ago)`,
    `  Result:      ${job.resultUrl ?? '—'}`,
    `  Available:   ${describeExpiry(job, now)}`,
    `  Cost:        ${describeCharge(job)}`,
  ];
  if (job.projectId) lines.push(`  Project:     ${job.projectId}`);
  if (job.error) lines.push(`  Problem:     ${job.error.explanation}`, `  Details:     ${job.error.message}`);
  return lines.join('\n');
}

export const jobsShowCommand: CliCommand = {
  name: 'jobs show',
  summary: 'one job: request, service answer, result, cost, problem',
  arguments: [{ name: 'ID', help: "a job id (the studio's or the service's), or the start of one", required: true }],
  options: [JSON_OPTION],
  run: (args, io) =>
    withJobs(args, io, async (studio, jobs) => {
      const job = findJob(studio, jobs, args.positional[0]);
      const copies = (await copiesOfJobs(studio, [job.id])).get(job.id) ?? [];
      io.out(
        args.flags['--json']
          ? JSON.stringify({ ...job, copies }, null, 2)
          : [formatDetails(job, Date.now()), ...formatCopies(copies, job)].join('\n'),
      );
      return EXIT.ok;
    }),
};

export const jobsWaitCommand: CliCommand = {
  name: 'jobs wait',
  summary: 'polls one job until it completes or fails (exit 0 only when it completed)',
  arguments: [{ name: 'ID', help: 'a job id, or the start of one', required: true }],
  options: [
    {
      name: '--timeout',
      value: 'SECONDS',
      help: 'give up waiting after this long (the job keeps running)',
      range: { min: 0.001, max: 604800 },
    },
    JSON_OPTION,
  ],
  run: (args, io) =>
    withJobs(args, io, async (studio, jobs) => {
      const target = findJob(studio, jobs, args.positional[0]);
      const timeoutText = flag(args, '--timeout');
      const timeout = timeoutText === undefined ? undefined : Number(timeoutText);
      if (timeout !== undefined && !(timeout > 0))
        throw new UsageError('--timeout must be a positive number of seconds');
      const json = args.flags['--json'] === true;
      if (!json)
        io.err(
          `Waiting for ${JOB_KIND_LABELS[target.kind].toLowerCase()} job ${target.id.slice(0, 8)} (${JOB_PHASE_LABELS[target.phase].toLowerCase()})…`,
        );
      const signal = timeout === undefined ? undefined : AbortSignal.timeout(timeout * 1000);
      let job: JobView;
      try {
        // Followed from now by the studio's engine if nothing follows it yet (a run reading the folder).
        if (!isFinalPhase(target.phase)) await studio.call('jobs.refresh', target.id);
        job = await waitForJob(studio, target.id, { signal });
      } catch (error) {
        if (!signal?.aborted) throw error;
        io.err(`Still not finished after ${timeoutText} s; the job keeps running on the service.`);
        return EXIT.failed;
      }
      io.out(json ? JSON.stringify(job, null, 2) : formatDetails(job, Date.now()));
      return job.phase === 'completed' ? EXIT.ok : EXIT.failed;
    }),
};

export const jobsCommands: readonly CliCommand[] = [jobsListCommand, jobsShowCommand, jobsWaitCommand];
