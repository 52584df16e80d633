import type { BatchRowState, BatchState } from '@common/bridge';
import { rowsByState, type RowsInState } from '@/queue/queue-status';

const BATCH_STATES: Record<BatchState, string> = {
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  finished: 'Finished',
};

const ROW_STATES: Record<BatchRowState, string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  queued: 'Queued',
  processing: 'Processing',
  completed: 'Done',
  failed: 'Failed',
  'outcome-unknown': 'Outcome unknown',
  stalled: 'Stalled',
  cancelled: 'Cancelled',
  invalid: 'Not sent',
};

export const batchStateLabel = (state: BatchState): string => BATCH_STATES[state];

/**
 * A row's state as the page names it. On a queued batch a row sent to the queue has no job in this
 * studio until its worker reports: "On the queue" says where it is, not "Queued" at the service.
 */
export const rowStateLabel = (state: BatchRowState, queued = false): string =>
  queued && state === 'queued' ? 'On the queue' : ROW_STATES[state];

/** The order a queued batch's lines are listed in: the ones under way first, then how the others ended. */
const QUEUED_ROW_ORDER: BatchRowState[] = [
  'queued',
  'sending',
  'processing',
  'waiting',
  'completed',
  'failed',
  'outcome-unknown',
  'stalled',
  'cancelled',
  'invalid',
];

/** A queued batch's lines by state, for its queue panel. */
export function batchQueueRows(counts: Partial<Record<BatchRowState, number>>): RowsInState[] {
  return rowsByState(counts, QUEUED_ROW_ORDER, (state) => rowStateLabel(state, true));
}

/** How a row's state is coloured: done, needs a look, or still going. */
export function rowStateType(state: BatchRowState): 'success' | 'error' | 'default' {
  if (state === 'completed') return 'success';
  if (state === 'failed' || state === 'outcome-unknown' || state === 'stalled' || state === 'invalid') return 'error';
  return 'default';
}

/**
 * Where a batch's rows stand, as the table and the list say it: sent (made at the service, whatever
 * came of it), running (at the service now), done, failed, held (not sent yet: waiting for a place, or
 * paused), refused by the checks, and cancelled (never sent).
 */
export interface BatchTally {
  sent: number;
  running: number;
  done: number;
  failed: number;
  held: number;
  refused: number;
  cancelled: number;
}

export function batchTally(counts: Partial<Record<BatchRowState, number>>): BatchTally {
  const n = (state: BatchRowState) => counts[state] ?? 0;
  const running = n('sending') + n('queued') + n('processing');
  const failed = n('failed') + n('outcome-unknown') + n('stalled');
  return {
    sent: running + n('completed') + failed,
    running,
    done: n('completed'),
    failed,
    held: n('waiting'),
    refused: n('invalid'),
    cancelled: n('cancelled'),
  };
}

/** "5 sent · 2 running · 3 done · 0 failed · 15 held · 1 refused · 21 rows" (cancelled only when there are some). */
export function tallyText(tally: BatchTally, total: number): string {
  const parts = [
    `${tally.sent} sent`,
    `${tally.running} running`,
    `${tally.done} done`,
    `${tally.failed} failed`,
    `${tally.held} held`,
    `${tally.refused} refused`,
  ];
  if (tally.cancelled) parts.push(`${tally.cancelled} cancelled`);
  return `${parts.join(' · ')} · ${total} rows`;
}

/**
 * What the user can do to one row of a started batch. Listen: it has a take (its result, or while it
 * is made again, the last good one). Change: a row not
 * sent yet, while nothing is being sent (paused or finished). Remake: an ended row, made again with a
 * change or as it is (a new paid job). Delete: a row not sent yet, while nothing is being sent.
 */
export function rowActions(
  batch: BatchState,
  row: BatchRowState,
  hasTake = row === 'completed',
): { listen: boolean; change: 'edit' | 'remake' | null; redo: boolean; remove: boolean } {
  const quiet = batch === 'paused' || batch === 'finished';
  const unsent = row === 'waiting' || row === 'invalid';
  const ended = row === 'completed' || row === 'failed';
  const live = batch !== 'cancelled';
  return {
    listen: hasTake,
    change: live && ended ? 'remake' : live && unsent && quiet ? 'edit' : null,
    redo: live && ended,
    remove: unsent && quiet,
  };
}
