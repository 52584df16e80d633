import { createHash } from 'node:crypto';
import type { BatchView } from '../../common/bridge/batches';
import type { ExportResult } from '../../services/voices/batch-export';
import { EXIT, type CliIo, type ParsedArgs } from '../command';
import { rowLabel } from '../../common/text/row-label';
import { batchRows, type ReadBatchRows } from './batch-pages';

/** What saving a batch into its folder answered (here or in the owner). */
type Saved = Pick<ExportResult, 'saved' | 'inFolder' | 'failed' | 'manifest'>;

/**
 * Prints how the batch ended and where its files are; exit 0 when every row sent completed and is in the
 * folder. The rows are read a page at a time: those with a problem to name them, all of them for --json.
 */
export async function reportBatch(
  args: ParsedArgs,
  io: CliIo,
  view: BatchView,
  rows: ReadBatchRows,
  result: Saved,
  outDir: string,
): Promise<number> {
  for (const failure of result.failed)
    io.err(`${rowLabel(failure, { capital: true })}: the audio could not be saved (${failure.error})`);
  for await (const row of batchRows(rows, view.id, 'problems'))
    if (row.problem && row.state !== 'completed')
      io.err(`${rowLabel(row, { capital: true })} ${row.state}: ${row.problem}`);
  // Refused rows were named before anything was sent; they fail the run only with --strict.
  const refusedCount = view.counts.invalid ?? 0;
  const sent = view.total - refusedCount;
  const complete =
    (view.counts.completed ?? 0) === sent &&
    result.inFolder === sent &&
    (refusedCount === 0 || args.flags['--strict'] !== true);
  if (args.flags['--json'] === true) {
    const { id: batch, state, counts } = view;
    const { saved, inFolder, manifest } = result;
    await printJson(io, { batch, state, counts, saved, inFolder, manifest }, batchRows(rows, view.id, 'all'));
  } else io.out(`${result.inFolder} of ${view.total} voiceovers in ${outDir}; manifest: ${result.manifest}`);
  return complete ? EXIT.ok : EXIT.failed;
}

/** The report as one JSON object whose `rows` are written as they are read, a row a line. */
async function printJson(io: CliIo, head: Record<string, unknown>, rows: AsyncIterable<unknown>): Promise<void> {
  const fields = JSON.stringify(head, null, 2);
  io.out(`${fields.slice(0, -2)},\n  "rows": [`);
  let held: unknown;
  let any = false;
  for await (const row of rows) {
    if (any) io.out(`    ${JSON.stringify(held)},`);
    [held, any] = [row, true];
  }
  if (any) io.out(`    ${JSON.stringify(held)}`);
  io.out('  ]\n}');
  await io.drained?.();
}

/** The same CSV into the same folder is the same batch: running it again goes on with it. */
export function batchIdOf(csvPath: string, outDir: string): string {
  return `cli-${createHash('sha256').update(`${csvPath}\u0000${outDir}`).digest('hex').slice(0, 20)}`;
}
