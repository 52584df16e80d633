// A row kind for tests of queued runs: its rows are made only on the queue, sent (state `queued`) until a
// worker's report says how they ended, kept in a data folder's run records.
import type { RowBase, RowKind, RunBase } from '../../../electron/services/rows/engine/row-kind';
import { runsIn } from './folder-runs';

export type QueuedOnlyRun = RunBase<RowBase>;

export const queuedOnlyRuns = (dataDir: string, kind: string) =>
  runsIn(dataDir).of<RowBase, QueuedOnlyRun>(kind, (raw) => raw as QueuedOnlyRun);

export function queuedOnlyKind(dataDir: string, kind: string): RowKind<RowBase, QueuedOnlyRun> {
  return {
    name: kind,
    runs: queuedOnlyRuns(dataDir, kind),
    rowOf: () => null,
    firstStep: () => 'queued',
    step: () => Promise.reject(new Error('a queued row is made by its worker')),
    cancelled: (row) => ({ ...row, state: 'cancelled' }),
    redo: (row) => ({ ...row, state: 'pending', take: row.take + 1 }),
    queued: { local: () => false, received: (row, reported) => ({ ...row, state: reported.state }) },
  };
}
