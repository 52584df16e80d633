import { resolve } from 'node:path';
import { campaignCounts, type CampaignRecord } from '../../common/campaign/record';
import { CAMPAIGN_MANIFEST, writeCampaignManifest } from '../../services/campaign/campaign-manifest';
import { campaignMusicMixer, createCampaignRunner } from '../../services/campaign/campaign-services';
import { createMediaToolkit } from '../../services/media/toolkit';
import { pathToFileURL } from 'node:url';
import { campaignIdFor, newCampaignRecord, reviseCampaign } from '../../services/campaign/campaign-setup';
import { CampaignStore } from '../../services/campaign/campaign-store';
import { ffprobeVerifier } from '../../services/downloads/verify';
import { defaultDataDir } from '../../services/host/data-dir';
import { JobReactor } from '../../services/jobs/reactor';
import { openCliHost } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand, type CliIo } from '../command';
import { JSON_OPTION } from '../common-options';
import {
  CAMPAIGN_INPUT_OPTIONS,
  checkCampaign,
  confirmCampaign,
  placementOf,
  readCampaignInput,
  reportCheck,
  sheetFolderOf,
} from './campaign-session';

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
    const host = openCliHost(args, io, 'reads');
    try {
      const check = await checkCampaign(host, input, args, io);
      const bad = reportCheck(check, input.label, io);
      if (args.flags['--json'] === true) {
        io.out(
          JSON.stringify(
            {
              readAs: check.readAs,
              columns: check.columns,
              problems: check.problems,
              rows: check.rows.map((r) => ({
                row: r.row + 1,
                file: r.fileName,
                values: r.values,
                problems: r.problems,
              })),
            },
            null,
            2,
          ),
        );
      } else if (bad === 0 && check.problems.length === 0) io.out(`Every row can be sent (${check.rows.length}).`);
      return bad === 0 && check.problems.length === 0 ? EXIT.ok : EXIT.refused;
    } finally {
      await host.close();
    }
  },
};

/** `studio campaign run`: checks, asks once for the total, then makes one video per good row into DIR. */
export const campaignRunCommand: CliCommand = {
  name: 'campaign run',
  paid: true,
  summary:
    'one video per row of the spreadsheet into DIR, named from its row, with manifest.csv; asks once for the total; run again on the same DIR to go on (rows unchanged since are not sent again)',
  arguments: TEMPLATE_ARGUMENTS,
  options: [
    { name: '--out', value: 'DIR', help: 'where the videos and manifest.csv go', required: true },
    {
      name: '--concurrency',
      value: 'N',
      help: 'rows at the service at once (default 4)',
      range: { min: 1, max: 32, integer: true },
    },
    ...CAMPAIGN_INPUT_OPTIONS,
    { name: '--retry-failed', help: 'make the rows that failed again' },
    { name: '--strict', help: 'a row refused by the check fails the run' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const input = await readCampaignInput(args, io);
    const outFlag = flag(args, '--out');
    if (!outFlag) throw new UsageError('Give --out DIR, the folder the videos and manifest.csv go to');
    const outDir = resolve(io.cwd, outFlag);
    const concurrency = Number(flag(args, '--concurrency') ?? 4);
    const json = args.flags['--json'] === true;
    const host = openCliHost(args, io, 'writes', { serveOthers: true });
    let stopMedia = (): Promise<void> => Promise.resolve();
    try {
      const check = await checkCampaign(host, input, args, io);
      reportCheck(check, input.label, io);
      if (check.problems.length > 0) throw new UsageError(check.problems.join('\n'));
      // Music is mixed under each row's voiceover on this machine, as the studio's Create does.
      const media = createMediaToolkit({
        dataDir: host.dataDir,
        resolve: { env: io.env },
        settings: () => host.settings.get(),
      });
      stopMedia = () => media.dispose();
      const mixMusic = campaignMusicMixer(
        media.music,
        (ref) => media.cache.localPath(ref),
        (path) => pathToFileURL(path).href,
      );
      const runner = createCampaignRunner({
        dataDir: host.dataDir,
        engine: host.engine,
        storage: host.storage,
        log: host.log,
        verify: ffprobeVerifier(() => host.settings.get()),
        placement: () => placementOf(host),
        mixMusic,
      });
      // The reactor moves a row on when one of its jobs ends, including jobs that ended while nothing ran.
      const reactor = new JobReactor({ engine: host.engine, log: host.log });
      reactor.on('campaign-row', (job) => runner.jobEnded(job));
      // The ledger first: the price question counts what today's jobs already spent.
      host.engine.start();
      const id = campaignIdFor(outDir);
      const fresh = newCampaignRecord({
        id,
        label: input.label,
        template: input.template,
        check,
        sheetFolder: sheetFolderOf(input),
        outDir,
        concurrency,
      });
      const existing = await runner.get(id);
      const record = existing
        ? reviseCampaign(existing, fresh, { retryFailed: args.flags['--retry-failed'] === true })
        : fresh;
      // One question for every row still to send, before anything is written or sent.
      await confirmCampaign(host, record, args, io);
      if (existing) {
        await runner.replace(record);
        if (!json)
          io.err(`Going on with the campaign started ${new Date(existing.createdAt).toISOString()} in ${outDir}.`);
      } else await runner.create(record);
      reactor.start();
      const interrupt = (): void => runner.stop();
      process.once('SIGINT', interrupt);
      let done: CampaignRecord;
      try {
        done = await runner.run(id);
      } finally {
        process.off('SIGINT', interrupt);
        runner.stop();
        reactor.stop();
        // The runner writes the manifest itself as the campaign finishes: that write must end before
        // this one starts and the process exits, or its temporary file is left beside the videos.
        await runner.idle();
        await runner.flush();
      }
      const manifest = await writeCampaignManifest(done, host.engine.list());
      return finishRun(done, manifest, args.flags['--strict'] === true, json, io);
    } finally {
      await stopMedia();
      await host.close();
    }
  },
};

function finishRun(record: CampaignRecord, manifest: string, strict: boolean, json: boolean, io: CliIo): number {
  const counts = campaignCounts(record);
  for (const row of record.rows)
    if (row.state === 'failed' || row.state === 'cancelled')
      io.err(`Row ${row.row + 1} ${row.state}: ${row.problems.join('; ')}`);
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
            row: r.row + 1,
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
  summary: 'where the campaign of a folder stands: rows by state, and each row not done with its reason',
  arguments: [{ name: 'DIR', help: 'the folder given to campaign run --out', required: true }],
  options: [JSON_OPTION],
  async run(args, io) {
    const dir = args.positional[0];
    if (!dir) throw new UsageError('Give the folder the campaign saves into (its --out)');
    const outDir = resolve(io.cwd, dir);
    const dataDir = flag(args, '--data-dir') ?? defaultDataDir(io.env);
    const record = await new CampaignStore(dataDir).get(campaignIdFor(outDir));
    if (!record) {
      io.err(
        `No campaign saves into ${outDir} (in the data folder ${dataDir}). Start one with: studio campaign run TEMPLATE ROWS --out ${dir}`,
      );
      return EXIT.failed;
    }
    const counts = campaignCounts(record);
    if (args.flags['--json'] === true) {
      io.out(
        JSON.stringify(
          {
            campaign: record.id,
            label: record.label,
            state: record.state,
            counts,
            manifest: resolve(outDir, CAMPAIGN_MANIFEST),
            rows: record.rows.map((r) => ({
              row: r.row + 1,
              state: r.state,
              file: r.fileName,
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
      for (const row of record.rows)
        if (row.state !== 'done')
          io.out(`  Row ${row.row + 1} ${row.state}${row.problems.length ? `: ${row.problems.join('; ')}` : ''}`);
    }
    return record.rows.every((r) => r.state === 'done' || r.state === 'invalid') ? EXIT.ok : EXIT.failed;
  },
};

export const campaignCommands: readonly CliCommand[] = [
  campaignCheckCommand,
  campaignRunCommand,
  campaignStatusCommand,
];
