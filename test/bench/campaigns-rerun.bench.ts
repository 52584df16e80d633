// Next week's run of a campaign sheet, measured where the Campaigns page waits for it: the host's check
// and price of a 5,100-row sheet (100 rows added, 5 changed) into a folder holding the 5,000 videos of
// last week's run, its ledger holding their voiceovers. The folder, its record of copies and the ledger
// are laid out as that run leaves them (files on disk, copies saved, voiceovers completed), so only the
// start's own work is timed: the sheet read, every row checked, the folder planned, the price asked.
// The baseline of the same run is the same at 1,000 rows; the figure is the time per row at 5,100 rows
// against the time per row at 1,020 (1.00: the start grows with the rows; a start that scanned the
// folder or the ledger once per row would read about 5).
// BENCH_RERUN_ROWS and BENCH_RERUN_BASELINE_ROWS change the sizes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobView } from '../../electron/common/bridge/jobs';
import type { CampaignRecord } from '../../electron/common/campaign/record';
import { startEmulator } from '../../electron/emulator';
import { checkCampaignTable } from '../../electron/services/campaign/campaign-check';
import { newCampaignRecord } from '../../electron/services/campaign/campaign-setup';
import { createCampaignsDomain } from '../../electron/services/campaign/campaigns-domain';
import { rowProject } from '../../electron/services/campaign/row-project';
import { voiceoverRequest } from '../../electron/services/campaign/row-steps';
import { CATALOGUE_ROOT } from '../unit/emulator/harness';
import { campaignHost, smallTemplate } from '../unit/campaign/campaign-harness';

const ROWS = Number(process.env.BENCH_RERUN_ROWS ?? 5_000);
const BASELINE_ROWS = Number(process.env.BENCH_RERUN_BASELINE_ROWS ?? 1_000);
const AIM_SECONDS = 10;
const DAY = 24 * 3600_000;

const linksGood = async (urls: readonly string[]) =>
  urls.map((url) => ({
    url,
    ok: true,
    kind: 'image' as const,
    format: 'png' as const,
    durationMs: null,
    sizeBytes: 1,
    checkedAt: 0,
  }));

/** `count` prospects; `changed` rows work for another company now (their file names stay the same). */
function sheetText(logo: string, count: number, changed: ReadonlySet<number> = new Set()): string {
  const lines = Array.from(
    { length: count },
    (_, i) => `Name${String(i + 1).padStart(5, '0')},${changed.has(i) ? 'Globex' : 'Acme'},Ava,SandboxBen,${logo}`,
  );
  return ['First name,company,voice,avatar,logo', ...lines].join('\n');
}

interface Figures {
  /** Last week's sheet, every row priced on an empty folder: its rows and the check and price in seconds. */
  firstRows: number;
  first: number;
  rows: number;
  check: number;
  quote: number;
  existing: number;
  kept: number;
  priced: string;
}

/** Last week's finished campaign laid out in a folder, then this week's sheet checked and priced on it. */
async function measure(rows: number, work: string): Promise<Figures> {
  const em = await startEmulator({ port: 0, catalogueDir: CATALOGUE_ROOT, dataDir: join(work, 'sandbox') });
  const host = campaignHost(em, join(work, 'data'));
  try {
    const logo = `${em.url}/sandbox/sandbox-backdrop.png`;
    const outDir = join(work, 'out');
    mkdirSync(outDir, { recursive: true });
    const template = smallTemplate();
    const now = Date.now();
    // The host's domain, on a ledger and a record of copies the bench fills as last week's run left them.
    let sheet = join(work, 'week1.csv');
    let copies: { url: string; savedPath: string; state: 'saved' }[] = [];
    let ledger: JobView[] = [];
    const engine = host.engine;
    const jobs = {
      list: () => ledger,
      quote: (items: Parameters<typeof engine.quote>[0]) => engine.quote(items),
      policy: () => engine.policy(),
      flush: () => engine.flush(),
    } as unknown as typeof engine;
    const domain = createCampaignsDomain(
      { jobs, catalogue: host.catalogue, queries: host.queries },
      {
        runner: host.runner,
        openProject: async () => template.project,
        pathOf: () => sheet,
        checkLinks: linksGood,
        stills: null as never,
        folderCopies: async () => copies,
      },
    );
    const input = {
      projectId: 'p',
      file: 'file:///granted/sheet.csv',
      label: 'sheet.csv',
      fileName: template.fileName,
      outDir,
      concurrency: 4,
    };
    const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const started = performance.now();
      const value = await work();
      return [value, (performance.now() - started) / 1000];
    };

    // Last week: every row checked and priced on an empty folder (once untimed: the catalogue's first answers).
    writeFileSync(sheet, sheetText(logo, rows));
    await domain.handlers['campaigns.check'](input);
    const [, firstCheck] = await timed(() => domain.handlers['campaigns.check'](input));
    const [, firstQuote] = await timed(() => domain.handlers['campaigns.quote'](input));
    const lines = sheetText(logo, rows)
      .split('\n')
      .map((l) => l.split(','));
    const check = await checkCampaignTable(template, lines, { catalogue: host.catalogue, checkLinks: linksGood });
    const fresh = newCampaignRecord({
      id: 'last-week',
      label: 'last week',
      template,
      check,
      sheetFolder: null,
      outDir,
      concurrency: 4,
    });
    const done: CampaignRecord = {
      ...fresh,
      createdAt: now - DAY,
      state: 'finished',
      rows: fresh.rows.map((row) => ({
        ...row,
        state: 'done' as const,
        voiceovers: {},
        resultUrl: `${em.url}/results/video-${row.row}.mp4`,
        expiresAt: now + 6 * DAY,
        savedAt: now - DAY,
      })),
    };
    await host.runner.create(done);
    for (const row of done.rows) writeFileSync(join(outDir, row.fileName), 'video');
    copies = done.rows.map((row) => ({
      url: row.resultUrl as string,
      savedPath: join(outDir, row.fileName),
      state: 'saved' as const,
    }));
    // Its voiceovers, completed and not expired, as the ledger lists them.
    ledger = done.rows.flatMap((row) =>
      rowProject(done, row).scenes.map(
        (scene, i) =>
          ({
            id: `tts-${row.row}-${i}`,
            kind: 'tts',
            phase: 'completed',
            resultUrl: `${em.url}/results/voice-${row.row}-${i}.mp3`,
            expiresAt: now + 6 * DAY,
            request: voiceoverRequest(scene).body,
            purpose: { type: 'campaign-row', campaignId: 'last-week', row: row.row, step: 'voiceover', take: 0 },
          }) as unknown as JobView,
      ),
    );

    // This week: 2% more rows, 5 changed, into the same folder.
    sheet = join(work, 'week2.csv');
    const changed = new Set(Array.from({ length: 5 }, (_, k) => Math.floor(((k + 1) * rows) / 7)));
    writeFileSync(sheet, sheetText(logo, Math.round(rows * 1.02), changed));
    const [checked, checkSeconds] = await timed(() => domain.handlers['campaigns.check'](input));
    const [quote, quoteSeconds] = await timed(() =>
      domain.handlers['campaigns.quote']({ ...input, existing: 'rename' }),
    );
    return {
      firstRows: rows,
      first: firstCheck + firstQuote,
      rows: Math.round(rows * 1.02),
      check: checkSeconds,
      quote: quoteSeconds,
      existing: checked.existing.length,
      kept: checked.kept,
      priced: quote.items.map((i) => `${i.count} ${i.action}`).join(', '),
    };
  } finally {
    await host.stop();
    await em.close();
  }
}

export async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'studio-bench-rerun-'));
  try {
    const baseline = await measure(BASELINE_ROWS, join(work, 'baseline'));
    const large = await measure(ROWS, join(work, 'large'));
    console.log(
      `next week's sheet (2% rows added, 5 changed) checked and priced on a folder of last week's ${ROWS} videos, against the same at ${BASELINE_ROWS}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores`,
    );
    console.log(
      `${'rows'.padStart(6)} ${'check'.padStart(8)} ${'price'.padStart(8)} ${'total'.padStart(8)} ${'kept'.padStart(6)} ${'taken'.padStart(6)}  priced`,
    );
    for (const f of [baseline, large])
      console.log(
        `${String(f.rows).padStart(6)} ${f.check.toFixed(2).padStart(6)} s ${f.quote.toFixed(2).padStart(6)} s ${(f.check + f.quote).toFixed(2).padStart(6)} s ${String(f.kept).padStart(6)} ${String(f.existing).padStart(6)}  ${f.priced}`,
      );
    const firstPerRow = (f: Figures) => f.first / f.firstRows;
    console.log(
      `first run, every row priced: ${baseline.firstRows} rows ${baseline.first.toFixed(2)} s, ${large.firstRows} rows ${large.first.toFixed(2)} s; ratio time per row: ${(firstPerRow(large) / firstPerRow(baseline)).toFixed(2)}`,
    );
    const perRow = (f: Figures) => (f.check + f.quote) / f.rows;
    const total = large.check + large.quote;
    console.log(
      `ratio time per row at ${large.rows} / at ${baseline.rows}: ${(perRow(large) / perRow(baseline)).toFixed(2)} (1.00 grows with the rows; aim at most 1.5: ${perRow(large) / perRow(baseline) <= 1.5 ? 'met' : 'NOT met'}); check and price of ${large.rows} rows ${total.toFixed(1)} s (aim under ${AIM_SECONDS} s: ${total < AIM_SECONDS ? 'met' : 'NOT met'})`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
