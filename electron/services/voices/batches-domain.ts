import { BatchInput, type batchesCalls, type CheckedBatchInput } from '../../common/bridge/batches';
import { checkTemplate } from '../../common/file-names';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import type { StudioServices } from '../host/studio-types';
import { checkSaveFolder } from '../downloads/downloads-service';
import { mediaVerifier } from '../downloads/verify';
import { resolveMediaBinary } from '../system/binaries';
import { MediaProber } from '../media/probe';
import { ProcessRunner } from '../media/process';
import { exportBatch } from './batch-export';
import { batchRowsPage, readBatchRowsPage } from './batch-rows-page';
import { withoutRows, type WholeBatch } from './batch-view';
import type { ResultCopies } from '../downloads/result-copies';
import {
  applyRowEdits,
  checkBatchTable,
  editedRow,
  knownVoicesOf,
  MAX_BATCH_ROWS,
  readPastedLines,
  refusedRows,
  type ReadBatch,
} from './batch-input';
import { readSheetFile } from '../sheets/read-sheet';
import { QUEUE_READ_GUARD_MS, queueStatusReader } from '../rows/queue/queue-status';

/** The local files the user chose, by the reference the page holds (LocalGrants). */
export interface GrantedFiles {
  pathOf(reference: string): string | null;
}

/** How the queue a batch's rows are made on is read for the page (tests set the clock and the guard). */
export interface BatchQueueReading {
  now?(): number;
  /** How long a queue's status may take before Redis counts as unreachable (default QUEUE_READ_GUARD_MS). */
  guardMs?: number;
}

/** The record of copies as a batch's table asks it: the result links whose batch copies are lost, none intact. */
export type BatchLostCopies = () => Promise<ReadonlySet<string>>;

/** Batch voiceovers for the Voices workspace: check, start, follow, pause, cancel, retry, save. */
export function createBatchesDomain(
  base: Pick<HostBase, 'log' | 'emit'>,
  {
    batches,
    catalogue,
    jobs,
    queues,
  }: Pick<StudioServices, 'batches' | 'catalogue' | 'jobs'> & Partial<Pick<StudioServices, 'queues'>>,
  granted: GrantedFiles,
  copies?: Pick<ResultCopies, 'saveOrThrow' | 'forget' | 'foreignFile'>,
  reading: BatchQueueReading = {},
  lostCopies: BatchLostCopies = async () => new Set(),
): DomainModule<typeof batchesCalls> {
  // A chosen spreadsheet is read from its file here, in whatever encoding or format it has; pasted lines as CSV.
  const read = async (input: CheckedBatchInput): Promise<ReadBatch> => {
    const known = await knownVoicesOf(catalogue);
    const edited = (table: ReadBatch) => applyRowEdits(table, input.edits, input.removed, input.defaults, known);
    if (input.file === undefined) return edited(readPastedLines(input.csv ?? '', input.defaults, known, input.columns));
    const path = granted.pathOf(input.file);
    if (!path)
      throw new StudioError('That spreadsheet was not chosen in this studio; choose the file again.', 'not-allowed');
    const table = await readSheetFile(path, { maxRows: MAX_BATCH_ROWS });
    return edited(checkBatchTable(table.rows, input.defaults, known, input.columns, table.lines));
  };
  const refused = (error: unknown, code: string): never => {
    throw new StudioError((error as Error).message, code);
  };
  // ffprobe checks each saved file is audio and says how long it plays; one prober, so a file is read once.
  const prober = new MediaProber(async () => (await resolveMediaBinary('ffprobe')).path, new ProcessRunner());
  // The same reading of a queue as a campaign's: one queue at an address holds both kinds of run.
  const queueStatus = queueStatusReader(queues, {
    now: reading.now ?? Date.now,
    guardMs: reading.guardMs ?? QUEUE_READ_GUARD_MS,
  });
  const recordOf = async (id: string) => {
    const record = await batches.get(id);
    if (!record) throw new StudioError(`No batch "${id}"`, 'not-found');
    return record;
  };
  const whole = async (id: string) => batches.view(await recordOf(id));
  // The page and the command line are answered a batch without its rows, which they read a page at a time.
  const view = async (id: string) => withoutRows(await whole(id));
  const answered = async (changed: Promise<WholeBatch>) => withoutRows(await changed);
  return {
    handlers: {
      'batches.check': async (input) => read(input),
      'batches.create': async (raw, confirmation) => {
        const queueOf = (url: string) => {
          if (!queues) throw new StudioError('This studio cannot send rows to a queue.', 'invalid-batch');
          return queues.address(url);
        };
        const input = BatchInput.parse(raw);
        const problem = checkTemplate(input.template);
        if (problem) throw new StudioError(problem, 'invalid-template');
        const checked = await read(input);
        if (checked.rows.length === 0)
          throw new StudioError(checked.problems[0]?.message ?? 'The batch has no rows', 'empty-batch');
        if (checked.problems.length === checked.rows.length)
          throw new StudioError(
            'No row of the batch can be sent; fix the rows named in the check first',
            'nothing-to-send',
          );
        if (input.key !== undefined && (await batches.get(input.key)))
          throw new StudioError(`A batch "${input.key}" exists already; go on with it instead`, 'exists');
        // One question for the whole batch: its rows then go out on this confirmation.
        const refused = new Set(checked.problems.map((p) => p.row));
        await jobs.requireConfirmed('tts', checked.rows.filter((r) => !refused.has(r.row)).length, confirmation);
        const record = await batches.create({
          id: input.key ?? `batch-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
          label: input.label,
          rows: checked.rows,
          ...refusedRows(checked.problems),
          concurrency: input.concurrency,
          template: input.template,
          maxCredits: input.maxCredits ?? null,
          ...(input.queue ? { queue: queueOf(input.queue) } : {}),
        });
        void batches.run(record.id);
        return withoutRows(batches.view(record));
      },
      'batches.revision': async (id, raw) => {
        const checked = await read(BatchInput.parse(raw));
        await recordOf(id);
        return batches.revision(id, checked.rows, refusedRows(checked.problems));
      },
      'batches.revise': async (id, raw, confirmation) => {
        const checked = await read(BatchInput.parse(raw));
        const refused = refusedRows(checked.problems);
        await recordOf(id);
        const { changed, added } = await batches.revision(id, checked.rows, refused);
        if (changed.length + added.length > 0)
          await jobs.requireConfirmed('tts', changed.length + added.length, confirmation);
        await batches.revise(id, checked.rows, refused);
        void batches.run(id);
        return view(id);
      },
      'batches.list': async () => {
        // Counted in the ledger: the engine's writes so far go in first.
        await jobs.flush();
        return batches.summaries();
      },
      'batches.get': view,
      // The window read from the database, the batch's jobs so far in it; else cut from the batch read whole.
      'batches.rows': async (id, query) => {
        const lost = await lostCopies();
        const pages = (await batches.pages?.()) ?? null;
        if (pages) await jobs.flush();
        const page = pages && readBatchRowsPage(pages, id, query, lost);
        return page ?? batchRowsPage((await whole(id)).rows, query, lost);
      },
      'batches.pause': async (id) => answered(batches.pause(id)),
      'batches.queueStatus': async (id) => {
        const record = await batches.get(id);
        if (!record) throw new StudioError(`No batch "${id}"`, 'not-found');
        return queueStatus(record.queue ?? null);
      },
      'batches.setCap': async (id, maxCredits) => {
        await recordOf(id);
        return answered(batches.setCap(id, maxCredits));
      },
      'batches.resume': async (id) => answered(batches.resume(id)),
      'batches.cancel': async (id) => answered(batches.cancel(id)),
      'batches.retryFailed': async (id, confirmation) => {
        const failed = (await view(id)).counts.failed ?? 0;
        if (failed > 0) await jobs.requireConfirmed('tts', failed, confirmation);
        return answered(batches.retryFailed(id));
      },
      // Making a row again is a new paid job: the user's answer to its price comes with it.
      'batches.redoRow': async (id, row, confirmation) => {
        await jobs.requireConfirmed('tts', 1, confirmation);
        return answered(batches.redoRow(id, row)).catch((error) => refused(error, 'cannot-redo'));
      },
      'batches.editRow': async (id, edit, { remake, confirmation }) => {
        if (remake) await jobs.requireConfirmed('tts', 1, confirmation);
        const known = await knownVoicesOf(catalogue);
        // A started batch keeps no defaults: a row changed to no voice is refused, not given one.
        return answered(batches.editRow(id, edit, remake, (row, change) => editedRow(row, change, {}, known))).catch(
          (error) => refused(error, 'cannot-edit'),
        );
      },
      'batches.removeRows': async (id, rows) =>
        answered(batches.removeRows(id, rows)).catch((error) => refused(error, 'cannot-remove')),
      'batches.export': async (id, folder, options) => {
        const existing = options?.existing;
        const batch = await whole(id);
        const checked = await checkSaveFolder(folder, { create: true });
        if (!checked.ok) throw new StudioError(checked.message, 'invalid-folder');
        const voices = new Map(
          (await catalogue.voices().catch(() => [])).map((voice) => [voice.voice_id, voice.name ?? null]),
        );
        const total = batch.rows.filter((row) => row.resultUrl).length;
        let done = 0;
        base.emit('batches.saving', { id, done, total });
        const earlier = (await batches.get(id))?.saved ?? {};
        const { files, ...result } = await exportBatch(batch, checked.folder, {
          replaces: new Map(Object.entries(earlier).map(([row, file]) => [Number(row), file.path])),
          verify: mediaVerifier((path) => prober.probe(path)),
          duration: async (path) => {
            const info = await prober.probe(path);
            return info.durationMs === null ? null : info.durationMs / 1000;
          },
          voiceName: (voiceId) => voices.get(voiceId) ?? null,
          // Each row's file is a recorded copy of its job's result, like every saved result; a file the
          // studio did not save at a row's name is left as it is and the row says so (never overwritten unasked).
          saveCopy: copies
            ? (row, target) =>
                copies.saveOrThrow({
                  jobId: row.jobId as string,
                  path: target,
                  savedBy: 'batch',
                  keepOthers: existing !== 'replace',
                })
            : undefined,
          foreignFile: copies ? (path) => copies.foreignFile(path) : undefined,
          existing,
          forgetCopy: copies ? (path) => copies.forget(path) : undefined,
          onRow: () => base.emit('batches.saving', { id, done: ++done, total }),
        });
        // The next Save reads this to replace a row's earlier file; whether a row is saved is the record of copies'.
        await batches.markSaved(id, files);
        base.log.info('batch saved', {
          batch: id,
          saved: result.saved,
          inFolder: result.inFolder,
          failed: result.failed.length,
        });
        return { folder: checked.folder, ...result };
      },
    },
  };
}
