import { JOB_KIND_LABELS, JOB_PHASE_LABELS, describeCost, describeExpiry, formatDuration, type JobView } from '../../common/bridge/jobs';
import { openCliHost, type CliHost } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { JSON_OPTION } from '../common-options';

async function withHost(args: ParsedArgs, io: CliIo, work: (host: CliHost) => Promise<number>): Promise<number> {
  const host = openCliHost(args, io, 'reads');
  try {
    return await work(host);
  } finally {
    await host.close();
  }
}

/** A job by full id or by a unique prefix (the list shows the first 8 characters). */
function findJob(host: CliHost, prefix: string | undefined): JobView {
  if (!prefix) throw new UsageError('Give the job id (or its first characters, as `jobs list` shows them)');
  const matches = host.engine.list().filter((j) => j.id === prefix || j.id.startsWith(prefix));
  if (matches.length === 0) throw new UsageError(`No job matches "${prefix}" in ${host.dataDir}`);
  if (matches.length > 1 && !matches.some((j) => j.id === prefix)) throw new UsageError(`"${prefix}" matches ${matches.length} jobs; give more characters`);
  return matches.find((j) => j.id === prefix) ?? matches[0];
}

function pad(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

export function formatTable(jobs: readonly JobView[], now: number): string {
  if (jobs.length === 0) return 'No jobs yet.';
  const header = `${pad('ID', 9)}${pad('KIND', 16)}${pad('STATUS', 17)}${pad('AGE', 10)}${pad('RESULT', 16)}${pad('COST', 13)}SUMMARY`;
  const rows = jobs.map((j) =>
    `${pad(j.id.slice(0, 8), 9)}${pad(JOB_KIND_LABELS[j.kind], 16)}${pad(JOB_PHASE_LABELS[j.phase], 17)}${pad(formatDuration(now - j.createdAt), 10)}${pad(describeExpiry(j, now), 16)}${pad(describeCost(j), 13)}${j.summary}`,
  );
  return [header, ...rows].join('\n');
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
    `  Cost:        ${describeCost(job)}${job.costEstimate && job.chargedCredits === null ? ` (${job.costEstimate.basis})` : ''}`,
  ];
  if (job.projectId) lines.push(`  Project:     ${job.projectId}`);
  if (job.error) lines.push(`  Problem:     ${job.error.explanation}`, `  Details:     ${job.error.message}`);
  return lines.join('\n');
}

export const jobsListCommand: CliCommand = {
  name: 'jobs list',
  summary: 'every job in the ledger, newest first',
  options: [JSON_OPTION],
  run: (args, io) =>
    withHost(args, io, async (host) => {
      host.engine.start({ poll: false, readOnly: true });
      const jobs = host.engine.list();
      io.out(args.flags['--json'] ? JSON.stringify(jobs, null, 2) : formatTable(jobs, Date.now()));
      return EXIT.ok;
    }),
};

export const jobsShowCommand: CliCommand = {
  name: 'jobs show',
  summary: 'one job: request, service answer, result, cost, problem',
  arguments: [{ name: 'ID', help: 'a job id, or the start of one', required: true }],
  options: [JSON_OPTION],
  run: (args, io) =>
    withHost(args, io, async (host) => {
      host.engine.start({ poll: false, readOnly: true });
      const job = findJob(host, args.positional[0]);
      io.out(args.flags['--json'] ? JSON.stringify(job, null, 2) : formatDetails(job, Date.now()));
      return EXIT.ok;
    }),
};

export const jobsWaitCommand: CliCommand = {
  name: 'jobs wait',
  summary: 'polls one job until it completes or fails (exit 0 only when it completed)',
  arguments: [{ name: 'ID', help: 'a job id, or the start of one', required: true }],
  options: [{ name: '--timeout', value: 'SECONDS', help: 'give up waiting after this long (the job keeps running)', range: { min: 0.001, max: 604800 } }, JSON_OPTION],
  run: (args, io) =>
    withHost(args, io, async (host) => {
      host.engine.start({ poll: false, readOnly: true });
      const target = findJob(host, args.positional[0]);
      const timeoutText = flag(args, '--timeout');
      const timeout = timeoutText === undefined ? undefined : Number(timeoutText);
      if (timeout !== undefined && !(timeout > 0)) throw new UsageError('--timeout must be a positive number of seconds');
      const json = args.flags['--json'] === true;
      if (!json) io.err(`Waiting for ${JOB_KIND_LABELS[target.kind].toLowerCase()} job ${target.id.slice(0, 8)} (${JOB_PHASE_LABELS[target.phase].toLowerCase()})…`);
      host.engine.follow(target.id);
      let job: JobView;
      try {
        job = await host.engine.waitFor(target.id, timeout === undefined ? undefined : AbortSignal.timeout(timeout * 1000));
      } catch {
        io.err(`Still not finished after ${timeoutText} s; the job keeps running on the service.`);
        return EXIT.failed;
      }
      io.out(json ? JSON.stringify(job, null, 2) : formatDetails(job, Date.now()));
      return job.phase === 'completed' ? EXIT.ok : EXIT.failed;
    }),
};

export const jobsCommands: readonly CliCommand[] = [jobsListCommand, jobsShowCommand, jobsWaitCommand];
