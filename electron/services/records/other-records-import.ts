import type { Notice, RecordsStage } from '../../common/bridge/system';
import type { Logger } from '../host/types';
import type { RecordsDatabase } from './database';
import { importDownloadQueuesInSteps } from './downloads-import';
import { importRunsInSteps } from './runs-import';
import { importUploadsInSteps } from './uploads-import';

/**
 * The old records other than the job journal, taken in by the first start after the update: the record
 * of storage links, the download queues (the record of saved copies) and the runs of campaigns and
 * batches, in that order, each reporting how far it is as it goes. They can be large too (a few hundred
 * thousand saved copies, a campaign of 100,000 rows): a host that drives these steps shows them, and
 * one that runs them at once still prints them.
 */
export function* importOtherRecordsInSteps(
  database: RecordsDatabase,
  dataDir: string,
  options: { log?: Logger; notify?: (notice: Notice) => void },
): Generator<RecordsStage, void> {
  for (const count of importUploadsInSteps(database, dataDir, { log: options.log })) yield { stage: 'links', ...count };
  for (const count of importDownloadQueuesInSteps(database, dataDir, { log: options.log }))
    yield { stage: 'copies', ...count };
  for (const progress of importRunsInSteps(database, dataDir, options)) yield { stage: 'runs', ...progress };
}
