import { basename, resolve } from 'node:path';
import {
  BatchInput,
  DEFAULT_BATCH_TEMPLATE,
  type BatchSummary,
  type BatchView,
  type ChosenSheet,
} from '../../common/bridge/batches';
import { checkTemplate } from '../../common/file-names';
import { OwnerCallError } from '../../services/host/owner-client';
import { knownVoicesOf } from '../../services/voices/batch-input';
import { sayWhere, withStudio } from '../cli-host';
import { UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { JSON_OPTION } from '../common-options';
import type { StudioLink } from '../studio-link';
import { batchIdOf, reportBatch } from './batch-report';
import { batchRows, type ReadBatchRows } from './batch-pages';
import { runLine } from './progress-bars';
import { followRun, reportUserPause } from './run-follow';
import { batchRunProgress } from '../../common/jobs/batch-progress';
import { MAX_CREDITS_OPTION, confirmPaidCli, maxCreditsOf, reportPause } from './paid-confirm';
import { parseRate } from './speech';
import { rowLabel } from '../../common/text/row-label';
import { QUEUE_OPTION } from './worker';
import { QUEUE_PASSWORD_FILE_OPTION, queueUrlOf, withQueueTurns } from '../queue-url';

function positiveInt(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, not "${value}"`);
  return n;
}

/** What the command line asked for, read and checked before the studio is asked anything. */
interface BatchAsked {
  file: string;
  csvPath: string;
  outDir: string;
  rate: string | undefined;
  concurrency: number;
  template: string;
  /** What to do with a file the studio did not save at a row's name (default: leave it, the row fails). */
  existing?: 'skip' | 'replace' | 'rename';
}

/**
 * The batch's name in the studio: the file and the folder its results go to. The same file into the
 * same folder finds the same batch again (by its id, batchIdOf; by this label one made through a studio
 * before batches took the command line's id).
 */
function labelOf(asked: BatchAsked): string {
  return `${basename(asked.csvPath)} → ${asked.outDir}`.slice(0, 500);
}

/** The batch this command started earlier, or null. */
async function earlierBatch(studio: StudioLink, asked: BatchAsked): Promise<BatchView | null> {
  const byId = await studio.call('batches.get', batchIdOf(asked.csvPath, asked.outDir)).catch((error: unknown) => {
    if (error instanceof OwnerCallError && error.code === 'not-found') return null;
    throw error;
  });
  if (byId) return byId;
  const found = (await studio.call('batches.list')).find((b) => b.label === labelOf(asked) && b.state !== 'cancelled');
  return found ? studio.call('batches.get', found.id) : null;
}

/** The sheet named to the studio (checked and read as its page's chosen sheets are): a file it cannot read is the command line's mistake. */
async function nameSheet(studio: StudioLink, asked: BatchAsked): Promise<ChosenSheet> {
  return studio.nameFile(asked.csvPath, 'sheet').catch((error: unknown) => {
    throw error instanceof OwnerCallError && error.code !== 'not-served'
      ? new UsageError(`Cannot read ${asked.file}: ${error.message}`)
      : error;
  });
}

/**
 * Runs the batch in the studio (this run's own, or the one that has the data folder open, whose Voices
 * workspace and Library then show it): the studio reads the file, checks, prices and runs the rows;
 * this process asks the price question once, prints the progress, and has the studio save every result
 * and manifest.csv into the folder. Run again, it goes on with the same batch: rows not sent yet are
 * sent, rows edited in the file since and new rows are made (asked first, once), and --retry-failed
 * sends the failed rows again.
 */
async function runBatch(args: ParsedArgs, io: CliIo, studio: StudioLink, asked: BatchAsked): Promise<number> {
  const json = args.flags['--json'] === true;
  sayWhere(studio, args, io, 'Running', '; the batch shows in its Voices workspace');
  const sheet = await nameSheet(studio, asked);
  const voices = await knownVoicesOf({ voices: (query = {}) => studio.call('catalogue.voices', query) });
  const voiceFlag = flag(args, '--voice');
  const defaults = { voiceId: voiceFlag ? (voices?.idOf?.(voiceFlag) ?? voiceFlag) : undefined, rate: asked.rate };
  const input = BatchInput.parse({
    file: sheet.url,
    label: labelOf(asked),
    key: batchIdOf(asked.csvPath, asked.outDir),
    defaults,
    concurrency: asked.concurrency,
    template: asked.template,
    maxCredits: maxCreditsOf(args),
    queue: flag(args, '--queue') === undefined ? undefined : queueUrlOf(args, io),
  });
  // The studio's own check, so a refused row is named before anything is asked.
  const checked = await studio.call('batches.check', input);
  if (checked.rows.length === 0) throw new UsageError(`${asked.file}: ${checked.problems[0]?.message ?? 'no rows'}`);
  for (const problem of checked.problems)
    io.err(
      `${rowLabel(checked.rows.find((r) => r.row === problem.row) ?? problem, { capital: true })} is not sent: ${problem.message}`,
    );
  const call = studio.call;
  const rowsOf: ReadBatchRows = (id, query) => call('batches.rows', id, query);
  let view = await earlierBatch(studio, asked);
  if (view) {
    const started = view;
    // Edited and new rows, and failed rows with --retry-failed, are new paid jobs: asked first, with their total.
    const { changed, added } = await call('batches.revision', started.id, input);
    let failed = 0;
    if (args.flags['--retry-failed'])
      for await (const row of batchRows(rowsOf, started.id, 'problems'))
        if (row.state === 'failed' && !changed.includes(row.row)) failed += 1;
    const toSend = changed.length + added.length + failed;
    const confirmation =
      toSend > 0 ? await confirmPaidCli(args, io, studio, { action: 'tts', count: toSend }) : undefined;
    view = await call('batches.revise', started.id, input, confirmation);
    // A cap given now replaces the one the batch had; a batch paused on its own goes on when run again.
    if (input.maxCredits !== undefined) view = await call('batches.setCap', started.id, input.maxCredits);
    if (view.state === 'paused' && view.pause) view = await call('batches.resume', started.id);
    if (!json)
      io.err(
        `Going on with the batch started ${new Date(started.createdAt).toISOString()}${changed.length ? `; ${changed.length} edited row${changed.length === 1 ? '' : 's'} sent again` : ''}.`,
      );
    if (failed > 0 && confirmation) view = await call('batches.retryFailed', started.id, confirmation);
  } else {
    // One question for the whole batch, with its total, as the studio asks it.
    const refused = new Set(checked.problems.map((p) => p.row));
    const confirmation = await confirmPaidCli(args, io, studio, {
      action: 'tts',
      count: checked.rows.filter((r) => !refused.has(r.row)).length,
    });
    view = await call('batches.create', input, confirmation);
  }
  const id = view.id;
  // Until it stops running: the live bar on a terminal, else a plain line every few seconds.
  await followRun(
    {
      read: async () => {
        const now = await call('batches.get', id);
        return { state: now.state, progress: batchRunProgress(now, null, Date.now()), charged: now.pace.spent };
      },
      watch: (changed) =>
        studio.on('batches.changed', (summary: BatchSummary) => {
          if (summary.id === id) changed(summary.state);
        }),
      lost: studio.lost,
    },
    io,
    { json },
  );
  view = await call('batches.get', id);
  if (!json && !(io.terminal ?? process.stderr.isTTY === true))
    io.err(runLine(batchRunProgress(view, null, Date.now()), false));
  const saved = await call('batches.export', id, asked.outDir, { existing: asked.existing });
  const reported = await reportBatch(args, io, view, rowsOf, saved, asked.outDir);
  const again = 'the same studio tts-batch command';
  const left = batchRunProgress(view, null, Date.now()).tally;
  // Paused by the account or by its user in the studio: exit 5, the rows left to a run again.
  return (
    reportPause(io, view.pause, again) ?? reportUserPause(io, view, left.underWay + left.waiting, again) ?? reported
  );
}

export const ttsBatchCommand: CliCommand = {
  name: 'tts-batch',
  makes: ['tts'],
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
      help: "ignored since rows follow the connection's pace (kept so scripts that pass it still run)",
      range: { min: 1, max: 32, integer: true },
    },
    { name: '--template', value: 'T', help: "file names, from the row's fields" },
    { name: '--retry-failed', help: 'send again the rows whose job failed' },
    MAX_CREDITS_OPTION,
    {
      name: '--existing',
      value: 'CHOICE',
      choices: ['skip', 'replace', 'rename'],
      help: "a file in DIR at a row's name that the studio did not save: skip the row, replace the file, or rename (keep both); without it the file is left as it is and the row fails",
    },
    { name: '--strict', help: 'a refused row fails the run' },
    QUEUE_OPTION,
    QUEUE_PASSWORD_FILE_OPTION,
    JSON_OPTION,
  ],
  async run(args, io) {
    const file = args.positional[0];
    const outFlag = flag(args, '--out-dir');
    if (!file) throw new UsageError('Give the CSV file (one voiceover per row)');
    if (!outFlag) throw new UsageError('Give --out-dir DIR, the folder the results and manifest.csv go to');
    const template = flag(args, '--template') ?? DEFAULT_BATCH_TEMPLATE;
    const templateProblem = checkTemplate(template);
    if (templateProblem) throw new UsageError(`--template: ${templateProblem}`);
    const asked: BatchAsked = {
      file,
      csvPath: resolve(io.cwd, file),
      outDir: resolve(io.cwd, outFlag),
      rate: parseRate(flag(args, '--rate')),
      concurrency: positiveInt(flag(args, '--concurrency'), '--concurrency', 4, 32),
      template,
      existing: flag(args, '--existing') as BatchAsked['existing'],
    };
    const queue = flag(args, '--queue') === undefined ? undefined : queueUrlOf(args, io);
    return withQueueTurns(queue, (limiter) =>
      withStudio(args, io, 'writes', (studio) => runBatch(args, io, studio, asked), { limiter }),
    );
  },
};
