import type { BatchRowState, BatchState } from '@common/bridge';

const BATCH_STATES: Record<BatchState, string> = { running: 'Running', paused: 'Paused', cancelled: 'Cancelled', finished: 'Finished' };

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
export const rowStateLabel = (state: BatchRowState): string => ROW_STATES[state];

/** How a row's state is coloured: done, needs a look, or still going. */
export function rowStateType(state: BatchRowState): 'success' | 'error' | 'default' {
  if (state === 'completed') return 'success';
  if (state === 'failed' || state === 'outcome-unknown' || state === 'stalled' || state === 'invalid') return 'error';
  return 'default';
}
