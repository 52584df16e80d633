import { JOB_PHASE_LABELS, type JobView, type SubmitResult } from '../../common/bridge/jobs';
import type { MediaCheck } from '../../common/composition/media-checks';
import type { MediaInfo } from '../../common/composition/media-info';
import { mediaFacts } from '../../common/tools/media-facts';
import { explainToolFailure, type ToolKind } from '../../common/tools/tool-failures';
import { EXIT, type CliIo } from '../command';
import { waitForJob } from '../job-wait';
import type { StudioLink } from '../studio-link';
import { saveResult } from './save-result';

/** "3.0 s · 640×360 · 25 fps · 2.1 MB · with sound". */
export function describeMedia(info: MediaInfo): string {
  return mediaFacts(info).join(' · ');
}

/** Warnings and refusals, one per line; true when something refuses the send. */
export function reportChecks(checks: readonly MediaCheck[], io: CliIo): boolean {
  for (const check of checks) io.err(`${check.level === 'error' ? 'Refused' : 'Warning'}: ${check.message}`);
  return checks.some((c) => c.level === 'error');
}

const BAR_WIDTH = 24;

export function jobBar(job: Pick<JobView, 'progress' | 'phase'>): string {
  const fraction = Math.max(0, Math.min(1, job.progress));
  const filled = Math.round(fraction * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}% ${JOB_PHASE_LABELS[job.phase]}`;
}

/**
 * Follows a sent tool job to its end (a bar redrawn in place on a terminal, phase lines otherwise),
 * explains a refusal in the tool's words (a kind without its own words: the general ones), and with
 * `out` saves the result. Returns the exit code.
 */
export async function followToolJob(
  studio: StudioLink,
  kind: ToolKind | null,
  result: SubmitResult,
  io: CliIo,
  options: { json: boolean; out?: string; tty: boolean },
): Promise<number> {
  if (result.status === 'duplicate') {
    io.err(`${result.message.replace(/ Send it anyway\?$/, '')} Add --again to send it anyway.`);
    return EXIT.failed;
  }
  const id = result.job.id;
  const { json, tty } = options;
  if (!json) io.err(`Sent as job ${id.slice(0, 8)} to ${result.job.connectionName}.`);
  let shown = '';
  const draw = (job: JobView) => {
    if (json) return;
    const line = jobBar(job);
    if (tty) process.stderr.write(`\r\x1b[2K${line}`);
    else if (job.phase !== shown) io.err(`  ${JOB_PHASE_LABELS[job.phase]}`);
    shown = job.phase;
  };
  draw(result.job);
  // The progress is an estimate that grows with time, so the bar is redrawn between the studio's answers.
  const ticker =
    tty && !json ? setInterval(() => void studio.call('jobs.get', id).then(draw, () => undefined), 1000) : null;
  const job = await waitForJob(studio, id, { onChange: draw }).finally(() => {
    if (ticker) clearInterval(ticker);
    if (tty && !json) process.stderr.write('\n');
  });
  if (job.phase !== 'completed') {
    io.err(
      `The job did not complete: ${(kind && explainToolFailure(kind, job.error?.code)) ?? job.error?.explanation ?? JOB_PHASE_LABELS[job.phase]}`,
    );
    if (json) io.out(JSON.stringify(job, null, 2));
    return EXIT.failed;
  }
  if (options.out) {
    const saved = await saveResult(studio, job, options.out, io);
    if (!json) io.err(`Saved ${saved}`);
  }
  io.out(json ? JSON.stringify({ ...job, savedTo: options.out ?? null }, null, 2) : (job.resultUrl ?? ''));
  return EXIT.ok;
}
