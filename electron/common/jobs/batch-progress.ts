import type { BatchRowState, BatchView } from '../bridge/batches';
import { describePause } from './run-pause';
import { runProgress, type RunProgress, type RunTally } from './run-progress';

/** A batch's rows by state as the run's tally: a row of unknown outcome or stalled counts as failed. */
export function batchRunTally(counts: Partial<Record<BatchRowState, number>>): RunTally {
  const n = (state: BatchRowState) => counts[state] ?? 0;
  return {
    done: n('completed'),
    failed: n('failed') + n('outcome-unknown') + n('stalled'),
    underWay: n('sending') + n('queued') + n('processing'),
    waiting: n('waiting'),
    refused: n('invalid'),
    cancelled: n('cancelled'),
  };
}

/**
 * A batch's progress read from its view: each completed row's finish is when its job ended, and the
 * charge of a row is what the service charged its job (the host reads both off the rows: BatchPace).
 * The pace is measured from the batch's start.
 */
export function batchRunProgress(
  view: Pick<BatchView, 'pace' | 'counts' | 'state' | 'createdAt'>,
  rowPrice: number | null,
  now: number,
): RunProgress {
  return runProgress(
    {
      tally: batchRunTally(view.counts),
      doneAt: view.pace.doneAt,
      running: view.state === 'running',
      sendingSince: view.createdAt,
      spent: view.pace.spent,
      rowCharge: view.pace.rowCharge,
      rowPrice,
    },
    now,
  );
}

/**
 * A paused batch's banner with its rows left and their cost counted now, and its jobs still at the
 * service (null: it did not pause on its own). The same words as a campaign's.
 */
export function batchPauseText(
  view: Pick<BatchView, 'pace' | 'counts' | 'state' | 'createdAt' | 'pause' | 'atService'>,
  rowPrice: number | null,
  now: number,
): string | null {
  if (view.state !== 'paused' || !view.pause) return null;
  const progress = batchRunProgress(view, rowPrice, now);
  return describePause(view.pause, {
    rowsLeft: progress.rowsLeft,
    creditsLeft: progress.creditsLeft,
    atService: view.atService,
  });
}
