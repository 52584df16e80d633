// A take that a worker made and answered, as the queue keeps it until its studio takes the report in:
// handed to the queue and made by a worker of this process that answers the given report.
import { RowTakes, type RowTake } from '../../../electron/services/rows/queue/row-takes';
import type { RowReport } from '../../../electron/services/rows/queue/run-shelf';

export async function reportedTake(url: string, prefix: string, take: RowTake, report: RowReport): Promise<void> {
  const takes = new RowTakes({ url, prefix });
  try {
    const delivered = new Promise<void>((resolve) =>
      takes.start(
        () => Promise.resolve(report),
        () => resolve(),
      ),
    );
    await takes.hand(take);
    await delivered;
  } finally {
    await takes.closeWithin(0);
  }
}
