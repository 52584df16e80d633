import type { DownloadEntry } from '../../common/bridge/downloads';
import { adoptCopies, type LegacyCopy } from '../downloads/adopt-copies';
import type { DownloadsService } from '../downloads/downloads-service';
import { ffprobeVerifier } from '../downloads/verify';
import { appSettingsSpec } from '../system/settings-store';
import type { HostBase } from './types';
import type { StudioServices } from './studio-types';
import type { QueueReader } from '../downloads/queue-records';
import { batchRuns } from '../voices/batch-record';
import type { RunStores } from '../rows/engine/run-store';

/**
 * Where earlier versions noted saved copies outside the download queue: the command line's own queue,
 * each campaign row marked saved (its file in the campaign's folder) and each batch Save (its rows'
 * files). Read only; adoptCopies records them in the one record of copies.
 */
export async function legacyCopies(
  runs: RunStores & { campaignNotes(): LegacyCopy[] },
  recorded: QueueReader,
): Promise<{ queue: DownloadEntry[]; copies: LegacyCopy[] }> {
  // The campaign rows' notes the record lacks, found by the database: no campaign is read whole.
  const copies: LegacyCopy[] = runs.campaignNotes();
  // A batch notes its Saves among its own fields: read without its rows, and not kept in the engine.
  for (const { run: batch } of await batchRuns(runs).summaries())
    for (const file of Object.values(batch.saved ?? {}))
      copies.push({ url: file.link, path: file.path, savedBy: 'batch', savedAt: batch.createdAt });
  return { queue: await recorded.entries('cli'), copies };
}

/**
 * Adopts the copies earlier versions noted elsewhere (once the ledger is loaded: a copy is found by
 * its job); never throws, a failure is logged and the copies stay where they were noted for next time.
 */
export async function adoptLegacyCopies(
  base: Pick<HostBase, 'dataDir' | 'log' | 'createStore'>,
  downloads: DownloadsService,
  { jobs }: Pick<StudioServices, 'jobs'>,
  records: { downloads: { reader: QueueReader }; runs: RunStores & { campaignNotes(): LegacyCopy[] } },
): Promise<number> {
  const settings = base.createStore(appSettingsSpec);
  try {
    return await adoptCopies(
      {
        manager: downloads.manager,
        jobs: (scope) => jobs.records(undefined, scope),
        verify: ffprobeVerifier(() => settings.get()),
        log: base.log,
      },
      await legacyCopies(records.runs, records.downloads.reader),
    );
  } catch (error) {
    base.log.warn('saved copies of earlier versions not adopted', { error });
    return 0;
  }
}
