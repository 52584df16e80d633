import { BatchInput, summariseBatch, type batchesCalls } from '../../common/bridge/batches';
import { checkTemplate } from '../../common/file-names';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import type { StudioServices } from '../jobs/studio-services';
import { checkSaveFolder } from '../downloads/downloads-service';
import { ffprobeVerifier } from '../downloads/verify';
import { exportBatch } from './batch-export';
import { knownVoicesOf, readBatch, refusedRows } from './batch-input';

/** Batch voiceovers for the Voices workspace: check, start, follow, pause, cancel, retry, save. */
export function createBatchesDomain(base: Pick<HostBase, 'log'>, { batches, catalogue }: Pick<StudioServices, 'batches' | 'catalogue'>): DomainModule<typeof batchesCalls> {
  const view = async (id: string) => {
    const record = await batches.get(id);
    if (!record) throw new StudioError(`No batch "${id}"`, 'not-found');
    return batches.view(record);
  };
  return {
    handlers: {
      'batches.check': async (input) => readBatch(input.csv, input.defaults, await knownVoicesOf(catalogue)),
      'batches.create': async (raw) => {
        const input = BatchInput.parse(raw);
        const problem = checkTemplate(input.template);
        if (problem) throw new StudioError(problem, 'invalid-template');
        const read = readBatch(input.csv, input.defaults, await knownVoicesOf(catalogue));
        if (read.rows.length === 0) throw new StudioError(read.problems[0]?.message ?? 'The batch has no rows', 'empty-batch');
        if (read.problems.length === read.rows.length) throw new StudioError('No row of the batch can be sent; fix the rows named in the check first', 'nothing-to-send');
        const record = await batches.create({
          id: `batch-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
          label: input.label,
          rows: read.rows,
          ...refusedRows(read.problems),
          concurrency: input.concurrency,
          template: input.template,
        });
        void batches.run(record.id);
        return batches.view(record);
      },
      'batches.list': async () => (await batches.list()).map((record) => summariseBatch(batches.view(record))),
      'batches.get': view,
      'batches.pause': async (id) => batches.pause(id),
      'batches.resume': async (id) => batches.resume(id),
      'batches.cancel': async (id) => batches.cancel(id),
      'batches.retryFailed': async (id) => batches.retryFailed(id),
      'batches.export': async (id, folder) => {
        const batch = await view(id);
        const checked = await checkSaveFolder(folder);
        if (!checked.ok) throw new StudioError(checked.message, 'invalid-folder');
        const result = await exportBatch(batch, checked.folder, { verify: ffprobeVerifier() });
        base.log.info('batch saved', { batch: id, saved: result.saved, inFolder: result.inFolder, failed: result.failed.length });
        return { folder: checked.folder, ...result };
      },
    },
  };
}
