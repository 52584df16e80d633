import { creditsText } from '../../common/jobs/cost-model';
import type { RunProgress } from '../../common/jobs/run-progress';
import { EXIT, type CliIo } from '../command';
import { LiveRunLine } from './progress-bars';
import { stopSignals } from '../../services/host/stop-signals';
import { pauseAfter } from '../../common/campaign/pause-after';

/** A command stopped by Ctrl-C or SIGTERM that has not ended by then ends outright (within 5 s in any state). */
const STOP_LIMIT_MS = 4_500;

class Stopped extends Error {
  constructor(readonly signal: string) {
    super(`stopped by ${signal}`);
  }
}

/** How often a plain progress line is printed where stderr is not a terminal (a log file, a CI job). */
export const PLAIN_PROGRESS_MS = 5_000;

/** A repeating timer: calls `tick` every `ms` until the answered stop is called. */
export type Every = (ms: number, tick: () => void) => () => void;

const everyByInterval: Every = (ms, tick) => {
  const timer = setInterval(tick, ms);
  // A line due is no reason to keep the process alive once the run ended.
  timer.unref();
  return () => clearInterval(timer);
};

/** A run of rows (a campaign, a batch) as the command line follows it until it stops running. */
export interface FollowedRun {
  /** Its state and figures now, and the credits the service charged its rows so far. */
  read(): Promise<{ state: string; progress: RunProgress; charged: number }>;
  /** Calls `changed` with its state on each change; answers the unsubscribe. */
  watch(changed: (state: string) => void): () => void;
  /** Rejects when the studio performing the run is gone. */
  lost: Promise<never>;
}

/** "Progress: 120 of 300 rows done, 2 failed, 14 under way; 1,440 credits charged". */
export function plainRunLine(progress: RunProgress, charged: number): string {
  const { done, failed, underWay } = progress.tally;
  return `Progress: ${done.toLocaleString('en-US')} of ${progress.planned.toLocaleString('en-US')} rows done, ${failed.toLocaleString('en-US')} failed, ${underWay.toLocaleString('en-US')} under way; ${creditsText(Math.round(charged))} charged`;
}

/**
 * Waits until the run stops running (finished, paused by the account or its user, cancelled), showing
 * its progress on stderr meanwhile. On a terminal the live bar is redrawn in place as rows change
 * (not with --json). Anywhere else (stderr a file or a pipe) a redrawn line would be noise, and a
 * silent log says nothing of a run of hours, so one plain line is printed every PLAIN_PROGRESS_MS by
 * `io.every` (tests pass a timer they tick themselves), --json or not: stdout carries the JSON.
 */
export async function followRun(run: FollowedRun, io: CliIo, { json }: { json: boolean }): Promise<void> {
  const terminal = io.terminal ?? process.stderr.isTTY === true;
  const live =
    terminal && !json
      ? new LiveRunLine(io.err, async () => {
          const now = await run.read();
          return { progress: now.progress, running: now.state === 'running' };
        })
      : null;
  let printing = false;
  // The last read's start and length: a read that took long skips ticks (pauseAfter, as the live line does).
  let read = { at: -Infinity, ms: 0 };
  const printLine = () => {
    // A read still going when the next tick comes makes that tick's line: one line at a time.
    const pause = pauseAfter(read.ms);
    if (printing || (pause > PLAIN_PROGRESS_MS && performance.now() - read.at < pause)) return;
    printing = true;
    const at = performance.now();
    void run
      .read()
      .then((now) => io.err(plainRunLine(now.progress, now.charged)))
      .catch(() => undefined)
      .finally(() => {
        read = { at, ms: performance.now() - at };
        printing = false;
      });
  };
  const stopLines = terminal ? () => {} : (io.every ?? everyByInterval)(PLAIN_PROGRESS_MS, printLine);
  let wake: () => void = () => {};
  let state = '';
  const stop = run.watch((now) => {
    state = now;
    live?.changed();
    wake();
  });
  try {
    // A change before the wait began is read back once; later ones arrive as events.
    state = (await run.read()).state;
    while (state === 'running') await Promise.race([new Promise<void>((done) => (wake = done)), run.lost]);
  } finally {
    stop();
    stopLines();
  }
  await live?.end();
}

/**
 * A run its user paused in the studio (Pause on its page, not the account): what is left and how to go
 * on, and the exit code that says so (5, as a pause by the account). Null when the run is not so paused.
 */
export function reportUserPause(
  io: CliIo,
  run: { state: string; pause?: unknown },
  rowsLeft: number,
  again: string,
): number | null {
  // Paused with nothing left to make is a run waiting for its held rows to be fitted, not a Pause.
  if (run.state !== 'paused' || run.pause || rowsLeft === 0) return null;
  io.err(
    `Paused in the studio: ${rowsLeft.toLocaleString('en-US')} row${rowsLeft === 1 ? '' : 's'} left; nothing failed for it. Resume it there, or run ${again} again to go on.`,
  );
  return EXIT.paused;
}

/**
 * `followRun`, which Ctrl-C or SIGTERM ends early when `stoppable` (a queued run, whose rows go on at the
 * workers): answers the signal that ended it (null: the run stopped running). The caller then returns,
 * and its studio closes in order (its records written, its queue let go without waiting on Redis); a
 * close still held at STOP_LIMIT_MS ends the process, and a second signal ends it at once.
 */
export async function followUnlessStopped(
  run: FollowedRun,
  io: CliIo,
  options: { json: boolean; stoppable: boolean },
): Promise<string | null> {
  if (!options.stoppable) return (await followRun(run, io, options), null);
  const signals = stopSignals({ say: io.err, what: 'The command', limitMs: STOP_LIMIT_MS, code: EXIT.failed });
  const stop = signals.asked.then((signal) => Promise.reject(new Stopped(signal)));
  stop.catch(() => undefined);
  try {
    await followRun({ ...run, lost: Promise.race([run.lost, stop]) }, io, options);
    return null;
  } catch (error) {
    if (error instanceof Stopped) return error.signal;
    throw error;
  } finally {
    signals.dispose();
  }
}
