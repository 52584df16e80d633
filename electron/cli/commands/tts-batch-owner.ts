import { basename } from 'node:path';
import {
  BATCH_ROW_STATES_ENDED,
  BatchInput,
  type BatchRow,
  type BatchSummary,
  type BatchView,
} from '../../common/bridge/batches';
import { checkBatchTable, knownVoicesOf } from '../../services/voices/batch-input';
import { OwnerCallError } from '../../services/host/owner-client';
import type { OwnerHost } from '../owner-host';
import { UsageError, flag, type CliIo, type ParsedArgs } from '../command';
import { confirmPaidCli } from './paid-confirm';
import { batchIdOf, progressLine, reportBatch } from './batch-report';

/** What the command line asked for, read and checked before the owner is asked anything. */
export interface BatchAsked {
  file: string;
  csvPath: string;
  outDir: string;
  rows: string[][];
  rate: string | undefined;
  concurrency: number;
  template: string;
}

/** The most rows a studio's batch sends at once (its input's limit). */
const OWNER_MAX_CONCURRENCY = 16;

/**
 * The batch's name in the studio: the file and the folder its results go to. The same file into the
 * same folder finds the same batch again, as a run without a studio finds its own by their hash.
 */
function labelOf(asked: BatchAsked): string {
  return `${basename(asked.csvPath)} → ${asked.outDir}`.slice(0, 500);
}

/** The batch this command started earlier: one a run without a studio made, or one made through the studio. */
async function earlierBatch(owner: OwnerHost, asked: BatchAsked): Promise<BatchView | null> {
  const byHash = await owner.owner
    .call('batches.get', batchIdOf(asked.csvPath, asked.outDir))
    .catch((error: unknown) => {
      if (error instanceof OwnerCallError && error.code === 'not-found') return null;
      throw error;
    });
  if (byHash) return byHash;
  const found = (await owner.owner.call('batches.list')).find(
    (b) => b.label === labelOf(asked) && b.state !== 'cancelled',
  );
  return found ? owner.owner.call('batches.get', found.id) : null;
}

/** Rows of the file whose script, voice or rate differ from the batch's, or that are new to it. */
function editedRows(rows: readonly BatchRow[], view: BatchView): BatchRow[] {
  const sent = new Map(view.rows.map((r) => [r.row, r]));
  return rows.filter((row) => {
    const was = sent.get(row.row);
    return !was || was.text !== row.text || was.voiceId !== row.voiceId || was.rate !== row.rate;
  });
}

/**
 * `studio tts-batch` beside a studio that has the data folder open: the studio reads the file (named to
 * it, checked and taken in as its page's chosen sheets are), prices and runs the batch, which shows in
 * its Voices workspace and Library; this process asks the price question, prints the progress and has
 * the studio save every result and manifest.csv into the folder. Run again, it goes on with the same
 * batch: paused rows resume, rows edited in the file since are made again and --retry-failed sends the
 * failed rows again (asked first, once). A row new to the file is named, not added.
 */
export async function ttsBatchThroughOwner(
  args: ParsedArgs,
  io: CliIo,
  owner: OwnerHost,
  asked: BatchAsked,
): Promise<number> {
  const json = args.flags['--json'] === true;
  const call = owner.owner.call;
  if (!json)
    io.err(
      `Running through the ${owner.owner.kind} that has the data folder open (process ${owner.owner.pid}); the batch shows in its Voices workspace.`,
    );
  const voices = await knownVoicesOf(owner.catalogue);
  const voiceFlag = flag(args, '--voice');
  const defaults = { voiceId: voiceFlag ? (voices?.idOf?.(voiceFlag) ?? voiceFlag) : undefined, rate: asked.rate };
  // The same check the studio makes, here first, so a refused row is named before anything is asked.
  const input = checkBatchTable(asked.rows, defaults, voices);
  if (input.rows.length === 0) throw new UsageError(`${asked.file}: ${input.problems[0]?.message ?? 'no rows'}`);
  for (const problem of input.problems) io.err(`Row ${problem.row + 1} is not sent: ${problem.message}`);
  let view = await earlierBatch(owner, asked);
  if (view) {
    const started = view;
    if (!json) io.err(`Going on with the batch started ${new Date(started.createdAt).toISOString()}.`);
    // Edited rows that had ended are made again with the change (as the Voices workspace's edit does);
    // a new row, or one still running, cannot be changed from here and is named.
    const ended = new Set(
      started.rows.filter((r) => BATCH_ROW_STATES_ENDED.has(r.state) && r.state !== 'invalid').map((r) => r.row),
    );
    const refusedNow = new Set(input.problems.map((p) => p.row));
    const edited = editedRows(input.rows, started).filter((row) => !refusedNow.has(row.row));
    const remake = edited.filter((row) => ended.has(row.row));
    const left = edited.filter((row) => !ended.has(row.row));
    if (left.length > 0)
      io.err(
        `Rows ${left.map((r) => r.row + 1).join(', ')} changed in ${asked.file} since the batch started but are new or still running; through the studio they are not sent: edit them in its Voices workspace, or run this with the studio closed.`,
      );
    const remade = new Set(remake.map((row) => row.row));
    const failed = args.flags['--retry-failed']
      ? started.rows.filter((r) => r.state === 'failed' && !remade.has(r.row)).length
      : 0;
    // One question for everything sent again, with its total.
    const confirmation =
      remake.length + failed > 0
        ? await confirmPaidCli(args, io, owner.engine, { action: 'tts', count: remake.length + failed })
        : undefined;
    for (const row of remake) {
      view = await call(
        'batches.editRow',
        started.id,
        {
          row: row.row,
          text: row.text,
          voice: row.voiceId,
          rate: row.rate,
          ...(row.name !== null && { name: row.name }),
        },
        { remake: true, confirmation },
      );
    }
    if (remake.length > 0 && !json) io.err(`${remake.length} edited row${remake.length === 1 ? '' : 's'} sent again.`);
    if (failed > 0 && confirmation) view = await call('batches.retryFailed', started.id, confirmation);
    else if (view.state === 'paused' || view.state === 'running') {
      // Running already is left running; a paused one goes on.
      view = await call('batches.resume', view.id);
    }
  } else {
    if (asked.concurrency > OWNER_MAX_CONCURRENCY)
      io.err(
        `--concurrency ${asked.concurrency}: the studio sends at most ${OWNER_MAX_CONCURRENCY} rows at once, so ${OWNER_MAX_CONCURRENCY} it is.`,
      );
    const sheet = await owner.owner.nameFile(asked.csvPath, 'sheet').catch((error: unknown) => {
      throw error instanceof OwnerCallError && error.code !== 'not-served'
        ? new UsageError(`Cannot read ${asked.file}: ${error.message}`)
        : error;
    });
    const refused = new Set(input.problems.map((p) => p.row));
    // One question for the whole batch, with its total, as the studio asks it.
    const confirmation = await confirmPaidCli(args, io, owner.engine, {
      action: 'tts',
      count: input.rows.filter((r) => !refused.has(r.row)).length,
    });
    const request = BatchInput.parse({
      file: sheet.url,
      label: labelOf(asked),
      defaults,
      concurrency: Math.min(asked.concurrency, OWNER_MAX_CONCURRENCY),
      template: asked.template,
    });
    view = await call('batches.create', request, confirmation);
  }
  const id = view.id;
  const live = !json && process.stderr.isTTY === true;
  if (live) io.err('');
  let wake: () => void = () => {};
  let state = view.state;
  const stop = owner.on('batches.changed', (summary: BatchSummary) => {
    if (summary.id !== id) return;
    state = summary.state;
    if (live) io.err(`\x1b[1F\x1b[2K${progressLine(summary)}`);
    wake();
  });
  try {
    // A change before the wait began is read back once; later ones arrive as events.
    state = (await call('batches.get', id)).state;
    while (state === 'running') await Promise.race([new Promise<void>((done) => (wake = done)), owner.owner.lost]);
  } finally {
    stop();
  }
  view = await call('batches.get', id);
  if (!json) io.err(progressLine({ ...view, total: view.rows.length }));
  if (view.state === 'paused')
    io.err('The batch was paused in the studio; run the same command again to go on with it.');
  return reportBatch(args, io, view, await call('batches.export', id, asked.outDir), asked.outDir);
}
