import { reviewNotice, waitsForReview } from '../../common/campaign/row-review';
import { dirname, join, resolve } from 'node:path';
import type { CampaignQueueStatus, CampaignSummary, CampaignView } from '../../common/bridge/campaigns';
import { COPY_STATE_LABELS } from '../../common/bridge/download-words';
import { campaignCounts, type CampaignRowRecord } from '../../common/campaign/record';
import { rowCopy } from '../../common/campaign/row-copy';
import { CAMPAIGN_MANIFEST } from '../../services/campaign/campaign-manifest';
import { campaignIdFor } from '../../services/campaign/campaign-setup';
import { checkedOnDisk } from '../../services/downloads/saved-report';
import { FolderQueueReader } from '../../services/records/sqlite-downloads';
import { OwnerCallError } from '../../services/host/owner-client';
import { sayWhere, withStudio } from '../cli-host';
import { EXIT, RefusedError, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import type { StudioLink } from '../studio-link';
import { JSON_OPTION } from '../common-options';
import { MAX_CREDITS_OPTION, maxCreditsOf, reportPause } from './paid-confirm';
import { campaignFigureLines } from './campaign-figures';
import { rowLabel, sheetRow } from '../../common/text/row-label';
import { campaignProgress, campaignRunProgress } from '../../common/campaign/progress';
import { takenFileLines, takenFilesHeadline } from '../../common/campaign/taken-files';
import { followUnlessStopped, reportUserPause } from './run-follow';
import { inSelection } from '../../common/campaign/row-selection';
import {
  CAMPAIGN_INPUT_OPTIONS,
  campaignRequest,
  type CampaignRequest,
  confirmCampaign,
  readCampaignInput,
  reportCheck,
} from './campaign-session';
import { QUEUE_OPTION } from './worker';
import { mediaStorageOption, useMediaStorage } from '../media-storage';
import { QUEUE_PASSWORD_FILE_OPTION, queueUrlOf, withQueueTurns } from '../queue-url';

const TEMPLATE_ARGUMENTS = [
  { name: 'TEMPLATE', help: 'a project saved by the studio, with {{variables}}', required: true },
  { name: 'ROWS', help: 'a CSV, TSV or .xlsx whose first line names the variables', required: true },
] as const;

/** `studio campaign check`: every row checked as `run` would, nothing sent. Exit 3 when a row or the file cannot be sent. */
export const campaignCheckCommand: CliCommand = {
  name: 'campaign check',
  summary:
    'check a template and its rows before anything is sent: each bad row named with its reasons (empty values, unknown voices and avatars, broken links, scripts over the limit, shared file names)',
  arguments: TEMPLATE_ARGUMENTS,
  options: [...CAMPAIGN_INPUT_OPTIONS, JSON_OPTION],
  async run(args, io) {
    const input = await readCampaignInput(args, io);
    // Checking sends nothing, so it runs beside a studio too (through that studio, or read-only).
    return withStudio(
      args,
      io,
      'reads',
      async (studio) => {
        const request = await campaignRequest(studio, input, args, { outDir: dirname(input.sheetPath) });
        const check = await studio.call('campaigns.check', request);
        const bad = reportCheck(check, input.label, io, request.rows);
        if (args.flags['--json'] === true) {
          io.out(
            JSON.stringify(
              {
                readAs: check.readAs,
                columns: check.columns,
                problems: check.problems,
                rows: check.rows.map((r) => ({
                  row: sheetRow(r),
                  file: r.fileName,
                  values: r.values,
                  problems: r.problems,
                  held: r.held,
                })),
              },
              null,
              2,
            ),
          );
        } else if (bad === 0 && check.problems.length === 0) io.out(`Every row can be sent (${check.rows.length}).`);
        return bad === 0 && check.problems.length === 0 ? EXIT.ok : EXIT.refused;
      },
      { sendsWork: false },
    );
  },
};

/** `studio campaign run`: checks, asks once for the total, then makes one video per good row into DIR. */
export const campaignRunCommand: CliCommand = {
  name: 'campaign run',
  makes: ['avatar-video', 'talking-avatar', 'tts'],
  summary:
    'one video per row of the spreadsheet into DIR, named from its row, with manifest.csv; asks once for the total; run again on the same DIR to go on (rows unchanged since are not sent again)',
  arguments: TEMPLATE_ARGUMENTS,
  options: [
    { name: '--out', value: 'DIR', help: 'where the videos and manifest.csv go', required: true },
    {
      name: '--concurrency',
      value: 'N',
      help: "ignored since rows follow the connection's pace (kept so scripts that pass it still run)",
      range: { min: 1, max: 32, integer: true },
    },
    ...CAMPAIGN_INPUT_OPTIONS,
    {
      name: '--retry-failed',
      help: 'make the rows that failed again (only the steps they lack); a queued row a worker finished while this studio had it failed is taken in from its report, not made again; a row waiting for review (a worker stopped mid-send) is left alone',
    },
    {
      name: '--retry-unknown',
      help: 'with --retry-failed: the rows waiting for review too, once you have checked the service made nothing for them (it may charge a step twice)',
    },
    MAX_CREDITS_OPTION,
    {
      name: '--existing',
      value: 'CHOICE',
      choices: ['skip', 'replace', 'rename'],
      help: 'a row whose file name is taken in DIR by a file that is not its own video: skip the row, replace the file, or rename (keep both); without it such a run sends nothing',
    },
    { name: '--strict', help: 'a row refused by the check fails the run' },
    QUEUE_OPTION,
    QUEUE_PASSWORD_FILE_OPTION,
    mediaStorageOption("the template's and the rows' local files"),
    JSON_OPTION,
  ],
  async run(args, io) {
    const input = await readCampaignInput(args, io);
    const outFlag = flag(args, '--out');
    if (!outFlag) throw new UsageError('Give --out DIR, the folder the videos and manifest.csv go to');
    const outDir = resolve(io.cwd, outFlag);
    const concurrency = Number(flag(args, '--concurrency') ?? 4);
    const json = args.flags['--json'] === true;
    const queue = flag(args, '--queue') === undefined ? undefined : queueUrlOf(args, io);
    return withQueueTurns(queue, (limiter) =>
      withStudio(
        args,
        io,
        'writes',
        async (studio) => {
          sayWhere(studio, args, io, 'Running', '; the campaign shows in its Campaigns');
          // Before any file is linked: the files go there, and a queued run records it as its storage.
          await useMediaStorage(studio, flag(args, '--media-storage'));
          const key = campaignIdFor(outDir);
          const request = await campaignRequest(studio, input, args, {
            outDir,
            concurrency,
            key,
            retryFailed: args.flags['--retry-failed'] === true,
            retryUnknown: args.flags['--retry-unknown'] === true,
            maxCredits: maxCreditsOf(args),
            existing: flag(args, '--existing') as CampaignRequest['existing'],
            queue,
          });
          const check = await studio.call('campaigns.check', request);
          reportCheck(check, input.label, io, request.rows);
          if (check.problems.length > 0) throw new UsageError(check.problems.join('\n'));
          // A file the campaign did not make is never written over on a script's behalf without its say.
          if (check.existing.length > 0) {
            // Every row named, as the Campaigns page names them (one wording for both).
            io.err(`${takenFilesHeadline(check.existing.length, outDir)}:`);
            for (const line of takenFileLines(check.existing)) io.err(`  ${line}`);
            throw new RefusedError(
              `Nothing was sent: ${check.existing.length} row${check.existing.length === 1 ? '' : 's'} would write over a file in ${outDir}. Pass --existing skip, replace or rename.`,
            );
          }
          if (check.kept > 0 && !json)
            io.err(
              `${check.kept} row${check.kept === 1 ? ' is' : 's are'} in ${outDir} already (made earlier, kept): not sent again.`,
            );
          const existing = await studio.call('campaigns.get', key).catch((error: unknown) => {
            if (error instanceof OwnerCallError && error.code === 'not-found') return null;
            throw error;
          });
          // One question for every row still to send, before anything is written or sent (none when nothing is left).
          const confirmation = (await confirmCampaign(studio, request, args, io)) ?? { by: 'user', credits: 0 };
          let view = await studio.call('campaigns.create', request, confirmation).catch((error: unknown) => {
            // The studio asked the price again: past today's limit, or changed since, nothing was sent.
            if (error instanceof OwnerCallError && /spending|confirm/.test(String(error.code)))
              throw new RefusedError(`Nothing was sent: ${error.message}`);
            throw error;
          });
          if (existing && !json)
            io.err(`Going on with the campaign started ${new Date(existing.createdAt).toISOString()} in ${outDir}.`);
          const review = view.rows.filter(waitsForReview).length;
          if (review > 0 && !json) io.err(reviewNotice(review));
          // Until it stops running: the live bar on a terminal, else a plain line every few seconds.
          const stoppedBy = await followUnlessStopped(
            {
              // The status, as the page reads it: the service's charges summed and the pace, without the rows
              // (the whole view carried every row, over the owner channel when a studio is open).
              read: async () => {
                const now = await studio.call('campaigns.status', key);
                return { state: now.state, progress: campaignProgress(now, null, Date.now()), charged: now.pace.spent };
              },
              watch: (changed) =>
                studio.on('campaigns.changed', (summary) => {
                  if (summary.id === key) changed(summary.state);
                }),
              lost: studio.lost,
            },
            io,
            { json, stoppable: queue !== undefined },
          );
          if (stoppedBy) {
            io.err(
              `${stoppedBy}: stopped following. The rows on the queue go on at the workers; their reports wait in Redis, and the same command run again takes them in.`,
            );
            return EXIT.paused;
          }
          view = await studio.call('campaigns.get', key);
          // With --rows, the run is judged by the rows it was given: others of earlier runs are not its own.
          const chosen = request.rows;
          const judged = chosen ? { ...view, rows: view.rows.filter((r) => inSelection(chosen, sheetRow(r))) } : view;
          const finished = finishRun(
            judged,
            join(outDir, CAMPAIGN_MANIFEST),
            args.flags['--strict'] === true,
            json,
            io,
          );
          const again = `studio campaign run (same --out ${outFlag})`;
          const left = campaignRunProgress(view, null, Date.now()).tally;
          // Paused by the account or by its user in the studio: exit 5 at once, the rows left to a run again.
          return (
            reportPause(io, view.pause, again) ??
            reportUserPause(io, view, left.underWay + left.waiting, again) ??
            finished
          );
        },
        { limiter },
      ),
    );
  },
};

function finishRun(record: CampaignView, manifest: string, strict: boolean, json: boolean, io: CliIo): number {
  const counts = campaignCounts(record);
  for (const row of record.rows)
    if (row.state === 'failed' || row.state === 'cancelled' || row.state === 'held')
      io.err(`${rowLabel(row, { capital: true })} ${row.state}: ${row.problems.join('; ')}`);
  if (counts.held)
    io.err(
      `${counts.held} row${counts.held === 1 ? ' is' : 's are'} held, not paid for: fit ${counts.held === 1 ? 'it' : 'them'} (the template or the spreadsheet), then run this again on the same --out to make ${counts.held === 1 ? 'it' : 'them'}.`,
    );
  const sent = record.rows.filter((r) => r.state !== 'invalid');
  const complete = sent.every((r) => r.state === 'done') && (!strict || counts.invalid === undefined);
  if (json)
    io.out(
      JSON.stringify(
        {
          campaign: record.id,
          state: record.state,
          counts,
          manifest,
          rows: record.rows.map((r) => ({
            row: sheetRow(r),
            state: r.state,
            file: r.state === 'done' ? r.fileName : null,
            problems: r.problems,
          })),
        },
        null,
        2,
      ),
    );
  else io.out(`${counts.done ?? 0} of ${record.rows.length} videos in ${record.outDir}; manifest: ${manifest}`);
  return complete ? EXIT.ok : EXIT.failed;
}

/** `studio campaign status DIR`: where the campaign of a folder stands, read from its record (nothing sent). */
export const campaignStatusCommand: CliCommand = {
  name: 'campaign status',
  summary:
    'where the campaign of a folder stands: rows by state, each row not done with its reason, and each done row whose file is missing or changed on disk',
  arguments: [{ name: 'DIR', help: 'the folder given to campaign run --out', required: true }],
  options: [JSON_OPTION],
  async run(args, io) {
    const dir = args.positional[0];
    if (!dir) throw new UsageError('Give the folder the campaign saves into (its --out)');
    const outDir = resolve(io.cwd, dir);
    // The record of copies is asked of the folder's owner (the open studio, or this run's own host,
    // read-only): its recorded rows can lag its last changes. It answers from the folder's records, so a
    // mistyped data folder is named (exit 4), never made for the occasion and answered "no campaign".
    return withStudio(args, io, 'reads', (studio) => reportStatus(studio, outDir, dir, args, io), {
      sendsWork: false,
      needsRecords: true,
    });
  },
};

/**
 * The campaigns that save into `outDir`, newest first, as the studio lists them (the open studio's own,
 * or this run's host on the same data folder): started by `campaign run` or on the Campaigns page alike.
 */
async function campaignsInto(studio: StudioLink, outDir: string): Promise<CampaignSummary[]> {
  const all = await studio.call('campaigns.list');
  return all.filter((c) => resolve(c.outDir) === outDir).sort((a, b) => b.createdAt - a.createdAt);
}

async function reportStatus(studio: StudioLink, outDir: string, dir: string, args: ParsedArgs, io: CliIo) {
  const [newest, ...older] = await campaignsInto(studio, outDir);
  if (!newest) {
    io.err(
      `No campaign saves into ${outDir} (in the data folder ${studio.dataDir}). Start one with: studio campaign run TEMPLATE ROWS --out ${dir}`,
    );
    return EXIT.failed;
  }
  // The newest campaign into the folder is what its files and manifest describe.
  const record = await studio.call('campaigns.get', newest.id);
  if (older.length > 0 && args.flags['--json'] !== true)
    io.err(
      `${older.length} earlier campaign${older.length === 1 ? '' : 's'} saved into this folder too; this is the newest, started ${new Date(record.createdAt).toISOString()}.`,
    );
  // Each done row's file as the record of copies has it, checked on disk now (the Campaigns page's "File missing").
  // Read from the folder's table by the rows' links (an index), not asked of the owner: its `downloads.list`
  // answers only the downloads under way.
  const links = [...new Set(record.rows.flatMap((r) => (r.state === 'done' && r.resultUrl ? [r.resultUrl] : [])))];
  const recorded = await new FolderQueueReader(studio.dataDir).ofLinks(links, 'studio');
  const entries = await checkedOnDisk(recorded.filter((d) => d.origin === 'campaign'));
  const copyOf = (row: CampaignRowRecord) => rowCopy(row, entries);
  const lost = record.rows.filter((r) => copyOf(r) === 'missing' || copyOf(r) === 'changed');
  const counts = campaignCounts(record);
  const queue = record.queue ? await studio.call('campaigns.queueStatus', record.id) : null;
  if (args.flags['--json'] === true) {
    io.out(
      JSON.stringify(
        {
          campaign: record.id,
          label: record.label,
          state: record.state,
          counts,
          manifest: resolve(outDir, CAMPAIGN_MANIFEST),
          ...(queue ? { queue } : {}),
          rows: record.rows.map((r) => ({
            row: sheetRow(r),
            state: r.state,
            file: r.fileName,
            copy: copyOf(r),
            problems: r.problems,
            link: r.resultUrl,
            expiresAt: r.expiresAt,
          })),
        },
        null,
        2,
      ),
    );
  } else {
    io.out(
      `Campaign "${record.label}" (${record.state}): ${Object.entries(counts)
        .map(([state, n]) => `${n} ${state}`)
        .join(', ')} of ${record.rows.length} rows`,
    );
    // The page's figures, by the page's function: bar, pace, time left, projected cost, pause banner, balance.
    const status = await studio.call('campaigns.status', record.id);
    for (const line of await campaignFigureLines(studio, status, Date.now())) io.out(line);
    if (queue) for (const line of queueLines(queue, `campaign/${record.id}`)) io.out(line);
    for (const row of record.rows) {
      const copy = copyOf(row);
      if (row.state !== 'done')
        io.out(
          `  ${rowLabel(row, { capital: true })} ${row.state}${row.problems.length ? `: ${row.problems.join('; ')}` : ''}`,
        );
      else if (copy === 'missing' || copy === 'changed')
        io.out(
          `  ${rowLabel(row, { capital: true })} done, ${COPY_STATE_LABELS[copy].toLowerCase()}: ${join(outDir, row.fileName)}`,
        );
    }
    if (lost.length > 0)
      io.out(
        `${lost.length} video${lost.length === 1 ? ' is' : 's are'} not on disk as saved: studio download --missing fetches ${lost.length === 1 ? 'it' : 'them'} again in place while the link works.`,
      );
  }
  // A folder with a file gone or changed is not the campaign's whole result: a script sees it in the exit status.
  const whole = record.rows.every((r) => r.state === 'done' || r.state === 'invalid');
  return whole && lost.length === 0 ? EXIT.ok : EXIT.failed;
}

/** Where a queued campaign's rows are made: the queue's counts, the workers connected to it, and why a worker refuses this run. */
function queueLines(status: CampaignQueueStatus, run: string): string[] {
  const head = `On the queue at ${status.queue}`;
  if (!status.counts) return [`${head}: ${status.problem ?? 'it could not be read'}`];
  const { waiting, active, delayed, failed } = status.counts;
  const workers = status.workers.map((w) => {
    const since = Math.max(0, Math.round((status.checkedAt - w.connectedAt) / 1000));
    const refusal = w.refuses?.find((r) => r.run === run);
    return `  worker ${w.name} on ${w.host || 'a machine not yet named'}: connected for ${since} s, making ${w.running}, made ${w.done}${refusal ? `; refuses this campaign: ${refusal.reason}` : ''}`;
  });
  return [
    `${head}: ${waiting} waiting, ${active} being made, ${delayed} waiting to retry, ${failed} failed (kept for review); ${status.workers.length} worker${status.workers.length === 1 ? '' : 's'} connected`,
    ...workers,
  ];
}

export const campaignCommands: readonly CliCommand[] = [
  campaignCheckCommand,
  campaignRunCommand,
  campaignStatusCommand,
];
