// Campaigns, measured: a 1,000-row campaign of the two-scene greeting (two voiceovers and one avatar
// video per row, then the download) against the sandbox in its own process, with its rate limit on and
// 5% of jobs failing, made by the row engine (rows under way follow its pacer, not a fixed count).
// Reports wall time, requests per row, 1005 answers, rows lost or created twice counted from the
// sandbox's own records, and, as ratios of the same run, the wall time against what the rate limit
// allows for the requests made plus the longest job, and the balance's fall against the jobs' prices.
// Then the host's memory for 1,000 and 10,000 rows checked and held. BENCH_ROWS changes the size.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CampaignRecord } from '../../electron/common/campaign/record';
import type { CampaignTemplate } from '../../electron/common/campaign/variables';
import { parseProject, setOutput } from '../../electron/common/composition';
import type { LinkReport } from '../../electron/common/composition/link-checks';
import { CatalogueService } from '../../electron/services/catalogue/catalogue-service';
import { modelPriceEstimator } from '../../electron/services/catalogue/model-prices';
import { ServiceClient, type FetchLike } from '../../electron/services/client';
import { checkCampaignTable } from '../../electron/services/campaign/campaign-check';
import { createCampaignRows, voiceLengthOf } from '../../electron/services/campaign/campaign-services';
import { MediaCache } from '../../electron/services/media/media-cache';
import { MediaProber } from '../../electron/services/media/probe';
import { ProcessRunner } from '../../electron/services/media/process';
import { campaignBalanceNote } from '../../electron/services/campaign/campaign-manifest';
import { newCampaignRecord } from '../../electron/services/campaign/campaign-setup';
import { createMemoryHostBase } from '../../electron/services/host/memory-host';
import { JobEngine } from '../../electron/services/jobs/engine';
import { openLedger, openRecords } from '../../electron/services/records/open-ledger';
import { JobReactor } from '../../electron/services/jobs/reactor';
import { RowEngine } from '../../electron/services/rows/engine/row-engine';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { createStorageServices } from '../../electron/services/storage/storage-services';
import { startSandbox, type Sandbox } from './jobs.bench';
import { counting } from './voices.bench';
import { createdPerRow, stopSandbox } from './campaign-sandbox';
import { killedAndResumed } from './campaign-killed';
import { projectionError, watchProjection } from './campaign-projection';

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
export const CONCURRENCY = 8;
const RATE_LIMIT = 40;
const FAIL_RATE = 0.05;
/** Each sandbox job lasts at least this long (a quarter queueing); its render may take longer. */
const JOB_SECONDS = 1;
const MEMORY_ROWS = [1_000, 10_000];
const root = join(import.meta.dirname, '..', '..');

/** What both campaign benches count of a run: its wall, requests and rows, by the sandbox's own records. */
export interface RunCounts {
  seconds: number;
  requests: number;
  /** Of the requests, asks after a job's state. */
  polls: number;
  rateLimited: number;
  done: number;
  failed: number;
  /** Rows not brought to an end: without their saved video and not failed with a reason. */
  lost: number;
  /** Rows the sandbox made a step of twice (a voiceover of one scene, or the video). */
  twice: number;
  sandboxJobs: number;
}

interface Outcome extends RunCounts {
  label: string;
  rows: number;
  /** The longest job, from its create leaving to its end (seconds, the ledger's figures). */
  longestJob: number;
  /** "The balance fell by …; its jobs' prices add up to …" */
  balance: string | null;
  /** Polls per job of each kind ("tts 2.1, avatar-video 3.4"), from the ledger. */
  pollsByKind: string;
  /** The page's time left and projected cost at 30% of rows done, against what the run then took. */
  projection: string;
}

/** The greeting at a small size with one-second scenes, so the sandbox's renders stay short. */
export function template(): CampaignTemplate {
  const parsed = parseProject(readFileSync(join(root, 'test/fixtures/campaign/greeting.project.json'), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  const small = setOutput(parsed.project, { width: 320, height: 180 });
  return {
    fileName: '{{row}} - {{First name}}',
    project: { ...small, scenes: small.scenes.map((s) => ({ ...s, durationMs: 1000 })) },
  };
}

/** Each row's first name is its own token (Name00017), found again in the sandbox's records of its jobs. */
const nameOf = (i: number) => `Name${String(i + 1).padStart(5, '0')}`;
function sheet(sandbox: Pick<Sandbox, 'url'>, rows: number): string[][] {
  const logo = `${sandbox.url}/sandbox/sandbox-backdrop.png`;
  return [
    ['First name', 'company', 'voice', 'avatar', 'logo'],
    ...Array.from({ length: rows }, (_, i) => [nameOf(i), `Co ${i + 1}`, 'Ava', 'SandboxBen', logo]),
  ];
}

/** Links are the sandbox's own picture; the link checker itself is not what is measured here. */
const linksGood = async (urls: readonly string[]): Promise<LinkReport[]> =>
  urls.map((url) => ({
    url,
    ok: true,
    kind: 'image' as const,
    format: 'png' as const,
    durationMs: null,
    sizeBytes: 1,
    checkedAt: 0,
  }));

/**
 * A host on a data folder as the CLI builds one (cli-host.ts): engine on its ledger with the models'
 * prices and the balance read around each create, reactor, runner, catalogue.
 */
export function host(sandbox: Pick<Sandbox, 'url' | 'apiKey'>, dataDir: string, fetchImpl?: FetchLike) {
  const client = new ServiceClient({
    baseUrl: sandbox.url,
    credentials: { kind: 'api-key', apiKey: sandbox.apiKey },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const connections = {
    active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
    client: async () => client,
  };
  const catalogue = new CatalogueService({ connections, clock: { now: () => Date.now() } });
  const records = openRecords(dataDir);
  const engine = new JobEngine({
    storage: records.ledger,
    connections,
    clock: { now: () => Date.now() },
    estimator: modelPriceEstimator((types) => catalogue.models(types)),
    balance: async () => (await client.call('quotaInfo', {})).credit,
  });
  const base = createMemoryHostBase({ sandbox: async () => ({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }) });
  const storage = createStorageServices({
    createStore: base.createStore,
    vault: base.vault,
    sandbox: base.sandbox,
    uploads: records.uploads,
  });
  const prober = new MediaProber(async () => (await resolveMediaBinary('ffprobe')).path, new ProcessRunner());
  // As the studio measures a voice: fetched once into the media cache, its length read from the file's header.
  const cache = new MediaCache({ dir: join(dataDir, 'cache'), maxBytes: 2 ** 30 });
  const voiceLength = voiceLengthOf(
    (url) => cache.localPath(url),
    (path) => prober.probe(path),
  );
  const runner = createCampaignRows({
    dataDir,
    runs: records.runs,
    engine,
    rows: new RowEngine({ jobs: engine }),
    storage,
    voiceLength,
  });
  const reactor = new JobReactor({ engine });
  reactor.on('campaign-row', (job) => runner.jobEnded(job));
  return { engine, runner, reactor, catalogue };
}

/** Stops a host as quitting does: nothing more sent, what was decided written down. */
export async function stopHost(h: ReturnType<typeof host>): Promise<void> {
  h.runner.stop();
  h.reactor.stop();
  h.engine.stop();
  await h.runner.idle();
  await h.runner.flush();
  await h.engine.flush();
}

export async function checked(
  h: ReturnType<typeof host>,
  sandbox: Pick<Sandbox, 'url'>,
  rows: number,
  id: string,
  outDir: string,
  concurrency: number,
): Promise<CampaignRecord> {
  const t = template();
  const check = await checkCampaignTable(t, sheet(sandbox, rows), { catalogue: h.catalogue, checkLinks: linksGood });
  if (check.problems.length > 0) throw new Error(check.problems.join('\n'));
  return newCampaignRecord({
    id,
    label: `${rows} prospects`,
    template: t,
    check,
    sheetFolder: null,
    outDir,
    concurrency,
  });
}

/** What the sandbox returns instead of speaking and rendering: the bench measures how rows are sent and followed. */
export interface ReadyMade {
  speechFixture: string;
  videoFixture?: string;
}

export async function measure(label: string, made: ReadyMade, rows: number, concurrency: number): Promise<Outcome> {
  const work = mkdtempSync(join(tmpdir(), 'studio-bench-campaigns-'));
  const sandbox = await startSandbox(join(work, 'sandbox'), {
    jobSeconds: JOB_SECONDS,
    failRate: FAIL_RATE,
    rateLimit: RATE_LIMIT,
    ...made,
  });
  try {
    const counter = counting();
    const h = host(sandbox, join(work, 'data'), counter.fetch);
    const outDir = join(work, 'out');
    const record = await checked(h, sandbox, rows, 'bench', outDir, concurrency);
    const before = { requests: counter.requests(), polls: counter.polls() };
    h.engine.start();
    h.reactor.start();
    const started = performance.now();
    await h.runner.create(record);
    const watching = watchProjection(async () => ({ record: await h.runner.get('bench'), jobs: h.engine.list() }), 0.3);
    const end = await h.runner.run('bench');
    const seconds = (performance.now() - started) / 1000;
    const projection = projectionError(await watching.stop(), Date.now(), end, h.engine.list());
    await stopHost(h);
    const done = end.rows.filter((r) => r.state === 'done' && existsSync(join(outDir, r.fileName))).length;
    const failed = end.rows.filter((r) => r.state === 'failed' && r.problems.length > 0).length;
    // The sandbox writes its records down as it closes: read once it has exited.
    await stopSandbox(sandbox);
    const perRow = createdPerRow(sandbox);
    if (process.env.BENCH_DEBUG)
      console.error(
        [...perRow].join(' '),
        end.rows.map((r) => `${r.row}:${r.state}:${r.problems.join(',')}`).join(' '),
      );
    const jobs = openLedger(join(work, 'data')).loadAll();
    const longestJob = Math.max(
      0,
      ...jobs.map((j) => (j.finishedAt === null ? 0 : (j.finishedAt - (j.sentAt ?? j.createdAt)) / 1000)),
    );
    const balance = campaignBalanceNote(end, h.engine.list());
    const byKind = new Map<string, { jobs: number; polls: number }>();
    for (const j of jobs) {
      const k = byKind.get(j.kind) ?? { jobs: 0, polls: 0 };
      byKind.set(j.kind, { jobs: k.jobs + 1, polls: k.polls + j.polls });
    }
    const pollsByKind = [...byKind].map(([kind, k]) => `${kind} ${(k.polls / k.jobs).toFixed(2)}`).join(', ');
    const twice = new Set([...perRow].filter(([, n]) => n > 1).map(([key]) => key.split(':')[0])).size;
    const sandboxJobs = [...perRow.values()].reduce((a, b) => a + b, 0);
    return {
      label,
      rows,
      seconds,
      requests: counter.requests() - before.requests,
      polls: counter.polls() - before.polls,
      rateLimited: counter.rateLimited(),
      done,
      failed,
      lost: rows - done - failed,
      twice,
      sandboxJobs,
      longestJob,
      balance,
      pollsByKind,
      projection: projection.line,
    };
  } finally {
    await stopSandbox(sandbox);
    rmSync(work, { recursive: true, force: true });
  }
}

/** The process's memory with garbage collected first, in MB (the child runs with --expose-gc). */
export function memory(): { heap: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / 2 ** 20, rss: m.rss / 2 ** 20 };
}

/** Rows checked against the sandbox's catalogue, made into a campaign and held by a runner (written down too). */
export async function held(
  sandbox: Pick<Sandbox, 'url' | 'apiKey'>,
  rows: number,
  work: string,
): Promise<{ checkSeconds: number; hold: unknown }> {
  const h = host(sandbox, work);
  const started = performance.now();
  const record = await checked(h, sandbox, rows, `held-${rows}`, join(work, 'out'), CONCURRENCY);
  await h.runner.create(record);
  await h.runner.flush();
  // Written down includes the campaign's manifest.csv: its write, under way a moment after the create, holds
  // the whole file's text until it is on disk, and is not what the campaign keeps.
  await h.runner.idle();
  const checkSeconds = (performance.now() - started) / 1000;
  if ((await h.runner.get(`held-${rows}`))?.rows.length !== rows) throw new Error('the runner lost rows');
  return { checkSeconds, hold: h };
}

interface Held {
  rows: number;
  base: { heap: number; rss: number };
  after: { heap: number; rss: number };
  checkSeconds: number;
}

/** Each size in a process of its own, so its RSS is its own and not what the campaign runs before left. */
function heldInChild(sandbox: Sandbox, rows: number): Held {
  const out = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      join(root, 'test/bench/campaign-memory-child.ts'),
      JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey, rows }),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop() as string) as Held;
}

export async function run(): Promise<void> {
  const fixtureDir = mkdtempSync(join(tmpdir(), 'studio-bench-fixture-'));
  const made = await readyMade(fixtureDir);
  try {
    const speechOnly = { speechFixture: made.speechFixture };
    const rendered = await measure('videos rendered by the sandbox', speechOnly, ROWS, CONCURRENCY);
    const orchestration = await measure('ready-made videos', made, ROWS, CONCURRENCY);
    // Half way through its creates, the host is SIGKILLed; a second host goes on from the data folder.
    const options = { jobSeconds: JOB_SECONDS, failRate: FAIL_RATE, rateLimit: RATE_LIMIT, ...speechOnly };
    const killed = await killedAndResumed(options, ROWS, Math.round(ROWS * 1.5));
    console.log(
      `${ROWS} rows of a two-scene template (2 voiceovers + 1 avatar video of 320x180 + download per row); sandbox jobs of at least ${JOB_SECONDS} s (a quarter queueing) plus their work, a ready-made sound for every voiceover, ${FAIL_RATE * 100}% failing, rate limit ${RATE_LIMIT} requests/s; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores`,
    );
    console.log(
      'first with every video rendered by the sandbox (3 renders at once, on the same cores as the studio), then with a ready-made video (inputs still fetched and checked) so only the sending and following is measured',
    );
    console.log(
      `${'videos'.padEnd(34)} ${'rows'.padStart(5)} ${'wall'.padStart(9)} ${'per row'.padStart(9)} ${'req/row'.padStart(8)} ${'polls/row'.padStart(10)} ${'1005s'.padStart(6)} ${'done'.padStart(5)} ${'failed'.padStart(7)} ${'lost'.padStart(5)} ${'twice'.padStart(6)} ${'sandbox jobs'.padStart(13)}`,
    );
    for (const o of [rendered, orchestration]) console.log(outcomeLine(o));
    for (const o of [rendered, orchestration]) for (const line of aimLines(o)) console.log(line);
    console.log(
      `SIGKILL after ${killed.killAfter} creates written down, then run again on the same data folder: ${killed.done} done, ${killed.failed} failed with a reason (the create cut off by the kill among them: "outcome unknown", never re-sent), the second host ${killed.seconds.toFixed(1)} s and ${(killed.requests / killed.rows).toFixed(2)} requests a row; aim 0 rows lost: ${killed.lost === 0 ? 'met' : 'NOT met'} (${killed.lost}); aim 0 rows created twice (the sandbox's records): ${killed.twice === 0 ? 'met' : 'NOT met'} (${killed.twice})`,
    );
  } finally {
    rmSync(fixtureDir, { recursive: true, force: true });
  }
  await heldMemory();
}

function outcomeLine(o: Outcome): string {
  return `${o.label.padEnd(34)} ${String(o.rows).padStart(5)} ${o.seconds.toFixed(1).padStart(7)} s ${(o.seconds / o.rows).toFixed(2).padStart(7)} s ${(o.requests / o.rows).toFixed(2).padStart(8)} ${(o.polls / o.rows).toFixed(2).padStart(10)} ${String(o.rateLimited).padStart(6)} ${String(o.done).padStart(5)} ${String(o.failed).padStart(7)} ${String(o.lost).padStart(5)} ${String(o.twice).padStart(6)} ${String(o.sandboxJobs).padStart(13)}`;
}

/** The run's aims, as ratios of its own figures. */
function aimLines(o: Outcome): string[] {
  const allowed = o.requests / RATE_LIMIT + o.longestJob;
  const wall = o.seconds / allowed;
  const perRow = o.requests / o.rows;
  return [
    `${o.label}: ratio wall / (requests ÷ ${RATE_LIMIT} per s + longest job ${o.longestJob.toFixed(1)} s = ${allowed.toFixed(1)} s): ${wall.toFixed(2)} (aim at most 1.1: ${wall <= 1.1 ? 'met' : 'NOT met'}); requests per row ${perRow.toFixed(2)} (aim at most 10: ${perRow <= 10 ? 'met' : 'NOT met'}); polls per job by kind: ${o.pollsByKind}`,
    `${o.label}: balance: ${o.balance ?? 'not read'}`,
    `${o.label}: ${o.projection}`,
    `${o.label}: aim 0 rows lost: ${o.lost === 0 ? 'met' : 'NOT met'} (${o.lost}); aim 0 rows created twice (the sandbox's records): ${o.twice === 0 ? 'met' : 'NOT met'} (${o.twice})`,
  ];
}

/** A second of sound and a second of 320x180 video with sound, made once by the bench's ffmpeg. */
export async function readyMade(dir: string): Promise<Required<ReadyMade>> {
  const ffmpeg = (await resolveMediaBinary('ffmpeg')).path;
  const speechFixture = join(dir, 'speech.mp3');
  const videoFixture = join(dir, 'video.mp4');
  const sine = ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=1'];
  execFileSync(ffmpeg, ['-v', 'error', ...sine, '-c:a', 'libmp3lame', '-b:a', '64k', speechFixture]);
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25:duration=1', ...sine],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', videoFixture],
  ]);
  return { speechFixture, videoFixture };
}

async function heldMemory(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'studio-bench-campaign-catalogue-'));
  const sandbox = await startSandbox(join(work, 'sandbox'), { jobSeconds: JOB_SECONDS });
  try {
    const results = MEMORY_ROWS.map((rows) => heldInChild(sandbox, rows));
    console.log(
      'host memory with the rows checked against the catalogue, made a campaign, written down and held by a runner; each size in a fresh process, garbage collected before measuring',
    );
    console.log(
      `${'rows'.padStart(6)} ${'heap before'.padStart(12)} ${'heap held'.padStart(10)} ${'RSS held'.padStart(9)} ${'heap/row'.padStart(9)} ${'check+write'.padStart(12)}`,
    );
    for (const r of results) {
      console.log(
        `${String(r.rows).padStart(6)} ${r.base.heap.toFixed(1).padStart(9)} MB ${r.after.heap.toFixed(1).padStart(7)} MB ${r.after.rss.toFixed(0).padStart(6)} MB ${(((r.after.heap - r.base.heap) * 1024) / r.rows).toFixed(2).padStart(6)} kB ${r.checkSeconds.toFixed(1).padStart(10)} s`,
      );
    }
    const [small, large] = [results[0], results[results.length - 1]];
    const perRow = (r: Held) => (r.after.heap - r.base.heap) / r.rows;
    console.log(
      `aim under 300 MB at ${large.rows} rows: ${large.after.rss < 300 ? 'met' : 'NOT met'} (RSS ${large.after.rss.toFixed(0)} MB); heap per row at ${large.rows} / at ${small.rows}: ${(perRow(large) / perRow(small)).toFixed(2)} (1.00 is flat: memory grows with the rows held, never faster)`,
    );
  } finally {
    await stopSandbox(sandbox);
    rmSync(work, { recursive: true, force: true });
  }
}
