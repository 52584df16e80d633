import type { JobView } from '../../../common/bridge/jobs';
import type { QueuedRows, RowBase } from '../engine/row-kind';
import type { RowTakes, TakeAt } from './row-takes';
import type { RowReport } from './run-shelf';

/**
 * A row made again (a retry of a row this studio failed) whose earlier take a worker finished while its
 * report waited at the queue: every such report's jobs join the ledger (they may have been charged), and
 * the newest done one is taken in instead of paying for the row again, unless the new take was handed
 * already (a worker may be making it) or the row's inputs changed since (the kind's `sameMaking`: the
 * earlier take's video is not its own). The others leave the queue, once the studio still writes.
 */
export async function earlierTake<Row extends RowBase>(
  takes: Pick<RowTakes, 'report' | 'taken'>,
  at: TakeAt,
  row: Row,
  sameMaking: QueuedRows<Row>['sameMaking'],
  handed: boolean,
  studio: { receive(jobs: JobView[]): Promise<void> | undefined; writes(): boolean },
): Promise<{ at: TakeAt; report: RowReport } | null> {
  if (at.take === 0) return null;
  const earlier = Array.from({ length: at.take }, (_, take) => ({ ...at, take }));
  const reports = await Promise.all(earlier.map((take) => takes.report(take)));
  const found = earlier.flatMap((take, i) => (reports[i] ? [{ at: take, report: reports[i] }] : [])).reverse();
  if (found.length === 0) return null;
  const adopted = found.find(
    ({ report }) =>
      report.outcome === 'ended' && report.record.state === 'done' && (sameMaking?.(row, report.record as Row) ?? true),
  );
  const adopt = adopted && !handed ? adopted : null;
  for (const other of found.filter((f) => f !== adopt)) {
    if (other.report.jobs) await studio.receive(other.report.jobs);
    if (studio.writes()) await takes.taken(other.at);
  }
  return adopt;
}
