// Callbacks instead of polling in the scale bench (issue 69): which worker counts run with callbacks,
// without, or both on the same sandbox and rate, and the lines that compare the two.
import { cpus } from 'node:os';
import type { CallbackCounts } from './callback-proxy';
import type { SandboxCallbacks } from './scale-records';

export type CallbackMode = 'on' | 'off' | 'both';

/**
 * SCALE_CALLBACKS=on|off|both for every worker count; unset, both at 4 workers (the pair the aims are
 * about) and polling alone at the others. Answers the runs to make, polling first.
 */
export function callbackRuns(workers: number, env: string | undefined = process.env.SCALE_CALLBACKS): boolean[] {
  const mode = env?.trim() || (workers === 4 ? 'both' : 'off');
  if (mode === 'on') return [true];
  if (mode === 'off') return [false];
  if (mode === 'both') return [false, true];
  throw new Error(`SCALE_CALLBACKS must be on, off or both, not "${env}"`);
}

/** What the lines read of one run. */
export interface CallbackRun {
  workers: number;
  callbacks: boolean;
  /** From the studio's first request to the command's exit, in seconds. */
  seconds: number;
  requests: number;
  polls: number;
  done: number;
  lost: number;
  twice: number;
  /** What each worker's receiver answered, added up (null when polling). */
  received: CallbackCounts | null;
  /** The sandbox's record of the callbacks it sent (null when polling). */
  sent: SandboxCallbacks | null;
  /** Cores the run's processes used on average over its wall, and the load average when it started. */
  cores: number;
  loadAtStart: number;
}

const AIM_REQUESTS_PER_ROW = 3.3;
const AIM_WALL_OVER_BOUND = 1.1;
const AIM_ROWS_AN_HOUR_RATIO = 1.8;

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const perHour = (r: CallbackRun) => (r.done * 3600) / r.seconds;
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

/** `who` names the run in each line ("4 worker(s) with callbacks"). */
export const who = (r: { workers: number; callbacks: boolean }) =>
  `${r.workers} worker(s)${r.callbacks ? ' with callbacks' : ''}`;

/**
 * For a run with callbacks: what the receivers answered and the sandbox sent, and the aims (requests
 * per row, rows lost and created twice, wall within the bound); with the polling run of the same
 * worker count, rows an hour against it.
 */
export function callbackLines(
  run: CallbackRun,
  polling: CallbackRun | undefined,
  rows: number,
  rateLimit: number,
): string[] {
  const name = who(run);
  const perRow = run.requests / rows;
  const ratio = run.seconds / (run.requests / rateLimit);
  const lines: string[] = [];
  if (run.received && run.sent) {
    const r = run.received;
    lines.push(
      `${name}: callbacks that reached the workers' receivers: ${r.received} (${(r.received / rows).toFixed(2)} a row): ${r.taken} taken in, ${r.replayed} refused as replayed or for another job (409), ${r.notYet} answered not yet (503, sent again), ${r.refused} refused otherwise; the sandbox called back about ${run.sent.jobs} jobs, the last callback of ${run.sent.delivered} delivered, ${run.sent.retried} after more than one try; polls ${(run.polls / rows).toFixed(2)} a row`,
    );
  }
  lines.push(
    `${name}: aim at most ${AIM_REQUESTS_PER_ROW} requests per row: ${met(perRow <= AIM_REQUESTS_PER_ROW)} (${perRow.toFixed(2)}${polling ? `; polling ${(polling.requests / rows).toFixed(2)}` : ''})`,
    `${name}: aim 0 rows lost: ${met(run.lost === 0)} (${run.lost}); aim 0 created twice (the sandbox's records): ${met(run.twice === 0)} (${run.twice})`,
    `${name}: aim wall within ${AIM_WALL_OVER_BOUND} times the bound: ${met(ratio <= AIM_WALL_OVER_BOUND)} (${ratio.toFixed(2)})`,
  );
  if (polling) {
    const gain = perHour(run) / perHour(polling);
    // Fewer requests a row gain rows an hour only while the rate, not the machine, bounds the run.
    lines.push(
      `${name}: aim rows an hour with callbacks ÷ rows an hour polling at least ${AIM_ROWS_AN_HOUR_RATIO} (same sandbox and rate): ${met(gain >= AIM_ROWS_AN_HOUR_RATIO)} (${gain.toFixed(2)}: ${thousands(perHour(run))} against ${thousands(perHour(polling))} rows an hour; the runs' processes used ${run.cores.toFixed(2)} and ${polling.cores.toFixed(2)} of ${cpus().length} cores, load average ${run.loadAtStart.toFixed(2)} and ${polling.loadAtStart.toFixed(2)} at their starts)`,
    );
  }
  return lines;
}
