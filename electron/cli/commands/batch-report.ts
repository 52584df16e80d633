import { createHash } from 'node:crypto';
import type { BatchView } from '../../common/bridge/batches';
import type { ExportResult } from '../../services/voices/batch-export';
import { EXIT, type CliIo, type ParsedArgs } from '../command';
import { rowLabel } from '../../common/text/row-label';

/** What saving a batch into its folder answered (here or in the owner). */
type Saved = Pick<ExportResult, 'saved' | 'inFolder' | 'failed' | 'manifest'>;

/** Prints how the batch ended and where its files are; exit 0 when every row sent completed and is in the folder. */
export function reportBatch(args: ParsedArgs, io: CliIo, view: BatchView, result: Saved, outDir: string): number {
  for (const failure of result.failed)
    io.err(
      `${rowLabel(view.rows.find((r) => r.row === failure.row) ?? failure, { capital: true })}: the audio could not be saved (${failure.error})`,
    );
  for (const row of view.rows)
    if (row.problem && row.state !== 'completed')
      io.err(`${rowLabel(row, { capital: true })} ${row.state}: ${row.problem}`);
  // Refused rows were named before anything was sent; they fail the run only with --strict.
  const sent = view.rows.filter((r) => r.state !== 'invalid');
  const refusedCount = view.rows.length - sent.length;
  const complete =
    sent.every((r) => r.state === 'completed') &&
    result.inFolder === sent.length &&
    (refusedCount === 0 || args.flags['--strict'] !== true);
  if (args.flags['--json'] === true)
    io.out(
      JSON.stringify(
        {
          batch: view.id,
          state: view.state,
          counts: view.counts,
          saved: result.saved,
          inFolder: result.inFolder,
          manifest: result.manifest,
          rows: view.rows,
        },
        null,
        2,
      ),
    );
  else io.out(`${result.inFolder} of ${view.rows.length} voiceovers in ${outDir}; manifest: ${result.manifest}`);
  return complete ? EXIT.ok : EXIT.failed;
}

/** The same CSV into the same folder is the same batch: running it again goes on with it. */
export function batchIdOf(csvPath: string, outDir: string): string {
  return `cli-${createHash('sha256').update(`${csvPath}\u0000${outDir}`).digest('hex').slice(0, 20)}`;
}
