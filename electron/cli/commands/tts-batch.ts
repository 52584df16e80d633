import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { DEFAULT_BATCH_TEMPLATE, type BatchView } from '../../common/bridge/batches';
import { checkTemplate } from '../../common/file-names';
import { ffprobeVerifier } from '../../services/downloads/verify';
import { exportBatch } from '../../services/voices/batch-export';
import { knownVoicesOf, readBatch, refusedRows } from '../../services/voices/batch-input';
import { BatchRunner } from '../../services/voices/batch-runner';
import { BatchStore } from '../../services/voices/batch-store';
import { openCliHost } from '../cli-host';
import { parseRate } from './speech';
import { EXIT, UsageError, flag, type CliCommand } from '../command';

const WIDTH = 24;

/** One line, redrawn in place on a terminal: a bar and how many rows are where. */
function progressLine(view: BatchView): string {
  const total = view.rows.length || 1;
  const filled = Math.round((view.done / total) * WIDTH);
  const parts = Object.entries(view.counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${view.done}/${view.rows.length} · ${parts.join(', ')}`;
}

/** The same CSV into the same folder is the same batch: running it again goes on with it. */
function batchIdOf(csvPath: string, outDir: string): string {
  return `cli-${createHash('sha256').update(`${csvPath}\u0000${outDir}`).digest('hex').slice(0, 20)}`;
}

function positiveInt(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${name} must be a whole number from 1 to ${max}, not "${value}"`);
  return n;
}

export const ttsBatchCommand: CliCommand = {
  name: 'tts-batch',
  usage: 'tts-batch FILE.csv --out-dir DIR [--voice ID] [--rate R] [--concurrency N] [--template T] [--retry-failed] [--json]',
  summary: 'one voiceover per CSV row (columns text, voice, rate, name): every result and manifest.csv into DIR; run again to go on (nothing is sent twice); exit 0 only when every row completed',
  valueFlags: ['--out-dir', '--voice', '--rate', '--concurrency', '--template'],
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
    const csv = await readFile(csvPath, 'utf8').catch((error: Error) => {
      throw new UsageError(`Cannot read ${file}: ${error.message}`);
    });
    const json = args.flags['--json'] === true;

    const host = openCliHost(args, io);
    try {
      const input = readBatch(csv, { voiceId: flag(args, '--voice'), rate: rateFlag }, await knownVoicesOf(host.catalogue));
      if (input.rows.length === 0) throw new UsageError(`${file}: ${input.problems[0]?.message ?? 'no rows'}`);
      for (const problem of input.problems) io.err(`Row ${problem.row + 1} is not sent: ${problem.message}`);
      const runner = new BatchRunner({ engine: host.engine, store: new BatchStore(host.dataDir), log: host.log });
      const id = batchIdOf(csvPath, outDir);
      host.engine.start();
      let record = await runner.get(id);
      if (record) {
        const same = record.rows.length === input.rows.length && record.rows.every((r, i) => r.text === input.rows[i].text && r.voiceId === input.rows[i].voiceId && r.rate === input.rows[i].rate);
        if (!same) throw new UsageError(`${file} changed since its batch into ${outFlag} started; give another --out-dir for the new rows`);
        if (!json) io.err(`Going on with the batch started ${new Date(record.createdAt).toISOString()}.`);
        if (args.flags['--retry-failed']) await runner.retryFailed(id);
        else if (record.state === 'paused') await runner.resume(id);
      } else {
        record = await runner.create({ id, label: basename(csvPath), rows: input.rows, ...refusedRows(input.problems), concurrency, template });
      }
      const live = !json && process.stderr.isTTY === true;
      let last = 0;
      const draw = (view: BatchView): void => {
        if (!live || Date.now() - last < 200) return;
        last = Date.now();
        io.err(`\x1b[1F\x1b[2K${progressLine(view)}`);
      };
      if (live) io.err('');
      const drawing = setInterval(async () => {
        const current = await runner.get(id);
        if (current) draw(runner.view(current));
      }, 250);
      let view: BatchView;
      try {
        view = await runner.run(id);
      } finally {
        clearInterval(drawing);
      }
      if (!json) io.err(progressLine(view));
      const result = await exportBatch(view, outDir, { verify: ffprobeVerifier() });
      for (const failure of result.failed) io.err(`Row ${failure.row + 1}: the audio could not be saved (${failure.error})`);
      for (const row of view.rows) if (row.problem && row.state !== 'completed') io.err(`Row ${row.row + 1} ${row.state}: ${row.problem}`);
      const complete = view.rows.every((r) => r.state === 'completed') && result.inFolder === view.rows.length;
      if (json) io.out(JSON.stringify({ batch: id, state: view.state, counts: view.counts, saved: result.saved, inFolder: result.inFolder, manifest: result.manifest, rows: view.rows }, null, 2));
      else io.out(`${result.inFolder} of ${view.rows.length} voiceovers in ${outDir}; manifest: ${result.manifest}`);
      return complete ? EXIT.ok : EXIT.failed;
    } finally {
      await host.close();
    }
  },
};
