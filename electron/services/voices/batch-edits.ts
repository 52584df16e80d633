import type { BatchRow, BatchRowEdit } from '../../common/bridge/batches';
import type { WholeBatch } from './batch-view';
import type { BatchInputRecord } from './batch-record';
import { rowLabel } from '../../common/text/row-label';

type Row = BatchRow;
/** Checks a row with a change on top, as the batch's input would (voice by name or id, rate in any form). */
export type RowCheck = (row: Row, edit: BatchRowEdit) => { entry: Row; problem: string | null };

/**
 * A batch with one row changed. A row not sent yet (or refused) changes only while nothing is being sent
 * (the batch paused or finished), so a change never races its own send; a row that ended changes only
 * with `remake`, which makes it again with the change (a new paid job; its old result stays until the
 * new one is saved over it). A refused row that now passes is sent when the batch runs; a finished
 * batch with a row to send runs again, a paused one waits for Resume.
 */
export function rowEdited(
  record: BatchInputRecord,
  view: Pick<WholeBatch, 'rows'>,
  edit: BatchRowEdit,
  remake: boolean,
  check: RowCheck,
): BatchInputRecord {
  const current = view.rows.find((r) => r.row === edit.row);
  const n = rowLabel(current ?? { row: edit.row });
  const N = rowLabel(current ?? { row: edit.row }, { capital: true });
  if (!current) throw new Error(`${N} is not in the batch.`);
  if (record.state === 'cancelled') throw new Error('The batch was cancelled: start a new one to change its rows.');
  const ended = current.state === 'completed' || current.state === 'failed';
  const unsent = current.state === 'waiting' || current.state === 'invalid';
  if (!ended && !unsent) throw new Error(`${N} is at the service (${current.state}); change it once it has ended.`);
  if (unsent && record.state === 'running')
    throw new Error(`Pause the batch to change ${n}: it may be sent at any moment.`);
  if (ended && !remake) throw new Error(`${N} has been made; changing it makes it again (a new job).`);
  const { entry, problem } = check(record.rows.find((r) => r.row === edit.row) as Row, edit);
  if (ended && problem) throw new Error(`${N} was not changed: ${problem}.`);
  const invalid = record.invalid.filter((r) => r !== edit.row);
  const reasons = { ...record.reasons };
  delete reasons[String(edit.row)];
  if (problem) {
    invalid.push(edit.row);
    reasons[String(edit.row)] = problem;
  }
  return {
    ...record,
    rows: record.rows.map((r) => (r.row === edit.row ? entry : r)),
    invalid: invalid.sort((a, b) => a - b),
    reasons,
    retry: ended ? [...new Set([...record.retry, edit.row])] : record.retry,
    state: record.state === 'finished' && (ended || !problem) ? 'running' : record.state,
  };
}

/**
 * A batch without some rows not sent yet (waiting, refused or cancelled), while it is not sending. A row
 * that was sent is a paid job: it stays, with its result, and the whole change is refused naming it.
 */
export function rowsRemoved(
  record: BatchInputRecord,
  view: Pick<WholeBatch, 'rows'>,
  rows: readonly number[],
): BatchInputRecord {
  if (record.state === 'running')
    throw new Error('Pause the batch before deleting rows: a row may be sent at any moment.');
  const sent = rows
    .map((row) => view.rows.find((r) => r.row === row))
    .find((r) => r !== undefined && r.state !== 'waiting' && r.state !== 'invalid' && r.state !== 'cancelled');
  if (sent)
    throw new Error(
      `${rowLabel(sent, { capital: true })} was sent (a paid job): it stays in the batch, and its file is saved with the others.`,
    );
  const gone = new Set(rows);
  const remaining = record.rows.filter((r) => !gone.has(r.row));
  if (remaining.length === 0) throw new Error('A batch keeps at least one row; cancel it instead.');
  return {
    ...record,
    rows: remaining,
    invalid: record.invalid.filter((r) => !gone.has(r)),
    retry: record.retry.filter((r) => !gone.has(r)),
  };
}
