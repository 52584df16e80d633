import { basename, resolve } from 'node:path';
import { DEFAULT_BATCH_TEMPLATE, summariseBatch, type BatchSummary, type BatchView } from '../../common/bridge/batches';
import { checkTemplate } from '../../common/file-names';
import { ffprobeVerifier } from '../../services/downloads/verify';
import { exportBatch } from '../../services/voices/batch-export';
import { checkBatchTable, knownVoicesOf, MAX_BATCH_ROWS, refusedRows } from '../../services/voices/batch-input';
import { readSheetFile } from '../../services/sheets/read-sheet';
import { BatchRunner } from '../../services/voices/batch-runner';
import { BatchStore } from '../../services/voices/batch-store';
import { openCliHost } from '../cli-host';
import { parseRate } from './speech';
import { UsageError, flag, type CliCommand } from '../command';
import { reachOwnerHost } from '../owner-host';
import { batchIdOf, progressLine, reportBatch } from './batch-report';
import { ttsBatchThroughOwner } from './tts-batch-owner';
import { JSON_OPTION } from '../common-options';
import { confirmPaidCli } from './paid-confirm';

function positiveInt(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, not "${value}"`);
  return n;
}

export const ttsBatchCommand: CliCommand = {
  name: 'tts-batch',
  paid: true,
  summary:
    'one voiceover per row of a CSV, TSV or .xlsx (columns text, voice, rate, name; any common encoding): every result and manifest.csv into DIR; run again to go on (nothing is sent twice; rows edited since are sent again); exit 0 when every row sent completed (--strict: and none was refused)',
  arguments: [{ name: 'FILE', help: 'a CSV, TSV or .xlsx with a script column', required: true }],
  options: [
    { name: '--out-dir', value: 'DIR', help: 'where every result and manifest.csv go', required: true },
    { name: '--voice', value: 'ID|NAME', help: 'the voice for rows that name none' },
    { name: '--rate', value: 'R', help: 'the speaking rate for rows that give none: 0% to 100% (50% normal)' },
    {
      name: '--concurrency',
      value: 'N',
      help: 'jobs in flight at once (default 4)',
      range: { min: 1, max: 32, integer: true },
    },
    { name: '--template', value: 'T', help: "file names, from the row's fields" },
    { name: '--retry-failed', help: 'send again the rows whose job failed' },
    { name: '--strict', help: 'a refused row fails the run' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const file = args.positional[0];
    const outFlag = flag(args, '--out-dir');
    if (!file) throw new UsageError('Give the CSV file (one voiceover per row)');
    if (!outFlag) throw new UsageError('Give --out-dir DIR, the folder the results and manifest.csv go to');
    const csvPath = resolve(io.cwd, file);
    const outDir = resolve(io.cwd, outFlag);
    const rateFlag = parseRate(flag(args, '--rate'));
    const concurrency = positiveInt(flag(args, '--concurrency'), '--concurrency', 4, 32);
    const template = flag(args, '--template') ?? DEFAULT_BATCH_TEMPLATE;
    const templateProblem = checkTemplate(template);
    if (templateProblem) throw new UsageError(`--template: ${templateProblem}`);
    const table = await readSheetFile(csvPath, { maxRows: MAX_BATCH_ROWS }).catch((error: Error) => {
      throw new UsageError(`Cannot read ${file}: ${error.message}`);
    });
    const json = args.flags['--json'] === true;
    // Beside a studio that has the data folder open, the batch is the studio's (its Voices and Library show it).
    const owner = await reachOwnerHost(args, io);
    if (owner) {
      const asked = { file, csvPath, outDir, rows: table.rows, rate: rateFlag, concurrency, template };
      return ttsBatchThroughOwner(args, io, owner, asked).finally(() => owner.close());
    }
    const host = openCliHost(args, io, 'writes', { serveOthers: true });
    try {
      const voices = await knownVoicesOf(host.catalogue);
      const voiceFlag = flag(args, '--voice');
      const input = checkBatchTable(
        table.rows,
        { voiceId: voiceFlag ? (voices?.idOf?.(voiceFlag) ?? voiceFlag) : undefined, rate: rateFlag },
        voices,
      );
      if (input.rows.length === 0) throw new UsageError(`${file}: ${input.problems[0]?.message ?? 'no rows'}`);
      for (const problem of input.problems) io.err(`Row ${problem.row + 1} is not sent: ${problem.message}`);
      const runner = new BatchRunner({ engine: host.engine, store: new BatchStore(host.dataDir), log: host.log });
      const id = batchIdOf(csvPath, outDir);
      host.engine.start();
      let record = await runner.get(id);
      if (record) {
        // Edited and new rows, and failed rows with --retry-failed, are new paid jobs: asked first, with their total.
        const plan = await runner.revision(id, input.rows, refusedRows(input.problems));
        const failed = args.flags['--retry-failed']
          ? runner
              .view(record)
              .rows.filter((r) => r.state === 'failed')
              .map((r) => r.row)
          : [];
        const toSend = new Set([...plan.changed, ...plan.added, ...failed]).size;
        if (toSend > 0) await confirmPaidCli(args, io, host.engine, { action: 'tts', count: toSend });
        const again = await runner.revise(id, input.rows, refusedRows(input.problems));
        if (!json)
          io.err(
            `Going on with the batch started ${new Date(record.createdAt).toISOString()}${again.length ? `; ${again.length} edited row${again.length === 1 ? '' : 's'} sent again` : ''}.`,
          );
        if (args.flags['--retry-failed']) await runner.retryFailed(id);
        else if (record.state === 'paused') await runner.resume(id);
      } else {
        // One question for the whole batch, with its total, as the studio asks it.
        const refused = new Set(input.problems.map((p) => p.row));
        await confirmPaidCli(args, io, host.engine, {
          action: 'tts',
          count: input.rows.filter((r) => !refused.has(r.row)).length,
        });
        record = await runner.create({
          id,
          label: basename(csvPath),
          rows: input.rows,
          ...refusedRows(input.problems),
          concurrency,
          template,
        });
      }
      const live = !json && process.stderr.isTTY === true;
      let last = 0;
      const draw = (view: BatchSummary): void => {
        if (!live || Date.now() - last < 200) return;
        last = Date.now();
        io.err(`\x1b[1F\x1b[2K${progressLine(view)}`);
      };
      if (live) io.err('');
      const drawing = setInterval(async () => {
        const current = await runner.get(id);
        if (current) draw(summariseBatch(runner.view(current)));
      }, 250);
      let view: BatchView;
      try {
        view = await runner.run(id);
      } finally {
        clearInterval(drawing);
      }
      if (!json) io.err(progressLine(summariseBatch(view)));
      return reportBatch(
        args,
        io,
        view,
        await exportBatch(view, outDir, { verify: ffprobeVerifier(() => host.settings.get()) }),
        outDir,
      );
    } finally {
      await host.close();
    }
  },
};
