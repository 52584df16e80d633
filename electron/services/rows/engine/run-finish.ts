import type { JobView } from '../../../common/bridge/jobs';
import type { Logger } from '../../host/types';
import { ROW_ENDED, type RowBase, type RowJobs, type RowKind, type RunBase } from './row-kind';
import type { RunMemory } from './run-memory';

/**
 * Ends a running run whose rows have all ended, once: what it leaves (a manifest) is written first, so
 * whoever waits for the finish finds it, then its state says finished and its one notice goes.
 */
export async function finishRun(
  memory: RunMemory,
  kind: RowKind<RowBase, RunBase<RowBase>>,
  jobsOf: Pick<RowJobs, 'list'>,
  id: string,
  log?: Logger,
): Promise<void> {
  const run = memory.inMemory(kind.name, id);
  if (!run || run.state !== 'running' || !run.rows.every((r) => ROW_ENDED.has(r.state))) return;
  if (!memory.claimFinish(kind.name, id)) return;
  try {
    const jobs = jobsOf.list(undefined, { runId: id });
    await kind
      .finishing?.({ ...run, state: 'finished' }, jobs)
      .catch((error: Error) =>
        log?.warn('what a finished run leaves was not written', { kind: kind.name, id, error: error.message }),
      );
    // The notice goes before anyone waiting for the finish hears of it (the state is in memory at once).
    const saved = memory.update(kind.name, id, (r) => ({ ...r, state: 'finished' }));
    kind.onFinished?.(run, jobs);
    await saved;
  } finally {
    memory.releaseFinish(kind.name, id);
  }
}

/**
 * A run not running (finished, paused, cancelled) lets go of the jobs its rows read from the ledger: the
 * ledger keeps them and the views sum them there. Asked when its run() ends and after every row's step,
 * since a paused or cancelled run's rows under way end one by one, each reading the run's jobs again.
 */
export function releaseIfStopped(memory: RunMemory, jobs: Pick<RowJobs, 'releaseRun'>, kind: string, id: string): void {
  const run = memory.inMemory(kind, id);
  if (run && run.state !== 'running') jobs.releaseRun?.(id);
}

/**
 * A run's jobs for a reader outside its rows (a batch's view, a manifest): read through the engine, so
 * those in memory are the newest, and let go of at once unless the run is running (its rows read them
 * on every step). A view of a finished batch of 100,000 rows must not leave them held for the session.
 */
export function readOnce(
  memory: RunMemory,
  jobs: Pick<RowJobs, 'list' | 'releaseRun'>,
  kinds: readonly string[],
  id: string,
): JobView[] {
  const read = jobs.list(undefined, { runId: id });
  if (!kinds.some((kind) => memory.inMemory(kind, id)?.state === 'running')) jobs.releaseRun?.(id);
  return read;
}
