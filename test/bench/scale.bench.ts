// Scale-out, measured (issue 52): one campaign of SCALE_ROWS rows (default 10,000) of the two-scene
// greeting, queued on Redis by `studio campaign run --queue` and made by 1, 2 and then 4 `studio worker`
// processes, against the sandbox in its own process at 40 requests a second, serving a ready-made sound
// and video so what is measured is the sending, following and saving, not ffmpeg. Each worker count
// gets a fresh Redis, sandbox and data folders. Reports the wall time against what the rate limit
// allows for the requests made (the bound, from the same run), requests per row, 1005 answers, rows lost
// and rows created twice (the sandbox's own records), and the workers' RSS and Redis's memory per row
// when the rows ended first pass 1,000 (a tenth of a smaller run) and at the end.
// SCALE_WORKERS=1,2 picks the worker counts; SCALE_RATE=N raises the sandbox's rate (the bound follows it); SCALE_CONCURRENCY=N gives each worker --concurrency N;
// SCALE_PROFILE=DIR writes each studio process's CPU profile there.
// Callbacks instead of polling (issue 69): SCALE_CALLBACKS=on|off|both runs each worker count with each
// worker given --callback-url (its own receiver on loopback, behind a pass-through that counts what the
// receiver answers, as a TLS proxy would stand in front of it), without, or both on the same sandbox and
// rate; unset, both at 4 workers and polling alone at the others. The pair is compared in rows an hour.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { startRedis } from '../redis-server';
import { readyMade, template, type RunCounts } from './campaigns.bench';
import { createdPerRow, stopSandbox } from './campaign-sandbox';
import { countingProxy, mostInAnyWindow, perSecondByTenth } from './counting-proxy';
import { startSandbox } from './jobs.bench';
import { STALL_MS, sandboxStalls, stallsLine, type LoopStalls } from './loop-stalls';
import { callbackProxy, type CallbackCounts, type CallbackProxy } from './callback-proxy';
import { referenceCpuSeconds } from './cpu-reference';
import { callbackLines, callbackRuns, who } from './scale-callbacks';
import { jobsByKind, perRowByPath, sandboxCallbacks, sandboxFailures, type SandboxCallbacks } from './scale-records';
import {
  followRun,
  growthPerRow,
  redisMemory,
  type Cpu,
  type CpuUsed,
  type RssPoint,
  type Sample,
} from './scale-follow';
import {
  profileArgs,
  runCampaign,
  startWorker,
  stopProcess,
  workerCpuSeconds,
  workerResidentMb,
  type StartedWorker,
  type StudioProcess,
} from './scale-processes';

const ROWS = Number(process.env.SCALE_ROWS ?? 10_000);
const WORKER_COUNTS = (process.env.SCALE_WORKERS ?? '1,2,4').split(',').map(Number);
/** Rows each worker makes at once; undefined: the worker's default (8). */
const CONCURRENCY = process.env.SCALE_CONCURRENCY ? Number(process.env.SCALE_CONCURRENCY) : undefined;
/** The sandbox's rate, shared by the workers. SCALE_RATE raises it for a run the machine should pace (100,000 rows). */
const RATE_LIMIT = Number(process.env.SCALE_RATE ?? 40);
// Issue 67's aims: CPU a row over every process (workers, studio, sandbox), and the workers' RSS growth a
// row between the early mark and the end (a leak shows there, not in the per-row figure counted from start).
const AIM_CPU_MS_PER_ROW = 80;
const AIM_RSS_KB_PER_ROW = 3;
/** Each sandbox job lasts at least this long (a quarter of it queueing). */
const JOB_SECONDS = 1;
/** Rows ended at the first memory sample: a tenth of the run (1,000 of 10,000; 10,000 of 100,000). */
const EARLY_ROWS = Math.max(1, Math.round(ROWS / 10));

interface Outcome extends RunCounts {
  /** The sandbox's event loop held past STALL_MS: requests waiting meanwhile are counted together. */
  stalls: LoopStalls | null;
  /** Of the 1005 answers, those to the studio that queued the run. */
  studioRateLimited: number;
  /** The most requests that reached the sandbox in any one second (the rate is RATE_LIMIT). */
  mostInSecond: number;
  /** Requests a second reaching the sandbox in each tenth of the wall. */
  pace: number[];
  workers: number;
  /** Each worker was given --callback-url, and polled only jobs whose callback was overdue. */
  callbacks: boolean;
  /** What the workers' receivers answered, added up (null when polling). */
  received: CallbackCounts | null;
  /** The sandbox's record of the callbacks it sent (null when polling). */
  sent: SandboxCallbacks | null;
  /** The command's whole life, its start-up included (`seconds` runs from the studio's first request). */
  commandSeconds: number;
  /** Of the requests, the starting studio's (the check, the upload, balance readings). */
  studioRequests: number;
  /** Requests to the sandbox's own routes (its storage for the rows' pictures, its prices), not among `requests`. */
  sandboxOwn: number;
  /** The machine's load average over the last minute when this run started (the runs of a pair share the machine with whatever else runs). */
  loadAtStart: number;
  /** The workers' first and last interface request, seconds from the studio's first. */
  workersSpan: [number, number];
  /** Requests per row by path, the workers' and the studio's ("/api/tts 2.00, …"). */
  paths: string;
  /** Why rows failed, and why the sandbox failed jobs, with how many failed so. */
  problems: Map<string, number>;
  /** From the workers' ledgers, by kind: polls per job and seconds from the create sent to the end seen. */
  byKind: string;
  base: Sample;
  early: Sample | null;
  end: Sample | null;
  /** The workers' RSS together through the run, a point every half a percent of its rows. */
  rssPoints: RssPoint[];
  redisPeak: number;
  /** Redis's used_memory and keys once the command exited and the workers stopped: what a run leaves. */
  redisAfter: number;
  keysAfter: number;
  /** CPU seconds used over the run: each worker, the starting studio, the sandbox. */
  cpu: CpuUsed;
  /** The same when the early mark was passed (null: the run never reached it). */
  earlyCpu: CpuUsed | null;
  /** CPU seconds of the reference work (cpu-reference.ts) just before the run and just after it. */
  reference: [number, number];
  /** The workers' own CPU seconds, together, when each said it takes rows (loading the command: not a row's). */
  workersStarting: number;
}

/** Each row's first name is its own token (Name00017), found again in the sandbox's records of its jobs. */
const nameOf = (i: number) => `Name${String(i + 1).padStart(5, '0')}`;

function writeInputs(dir: string, ffmpeg: string): { template: string; sheet: string } {
  const templatePath = join(dir, 'greeting.json');
  writeFileSync(templatePath, JSON.stringify(template().project));
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=orange:s=64x64', '-frames:v', '1'],
    join(dir, 'logo.png'),
  ]);
  const sheetPath = join(dir, 'rows.csv');
  const lines = Array.from({ length: ROWS }, (_, i) => `${nameOf(i)},Co ${i + 1},Ava,SandboxBen,logo.png`);
  writeFileSync(sheetPath, ['First name,company,voice,avatar,logo', ...lines].join('\n'));
  return { template: templatePath, sheet: sheetPath };
}

interface EndedRow {
  state: string;
  file: string | null;
  problems: string[];
}

async function measure(
  workers: number,
  callbacks: boolean,
  made: { speechFixture: string; videoFixture: string },
): Promise<Outcome> {
  const loadAtStart = loadavg()[0];
  const referenceBefore = referenceCpuSeconds();
  const work = mkdtempSync(join(tmpdir(), 'studio-bench-scale-'));
  const redis = await startRedis();
  const sandbox = await startSandbox(
    join(work, 'sandbox'),
    {
      jobSeconds: JOB_SECONDS,
      rateLimit: RATE_LIMIT,
      credits: 1_000_000_000,
      ...made,
    },
    { nodeFlags: profileArgs(), env: { SANDBOX_STALLS_OVER_MS: String(STALL_MS) } },
  );
  const toWorkers = await countingProxy(sandbox.url);
  const toStudio = await countingProxy(sandbox.url);
  const records = new Redis(redis.url);
  const running: StudioProcess[] = [];
  const receivers: CallbackProxy[] = [];
  try {
    const inputs = writeInputs(work, (await resolveMediaBinary('ffmpeg')).path);
    const names = Array.from({ length: workers }, (_, i) => `w${i + 1}`);
    const started: StartedWorker[] = [];
    for (const name of names) {
      // The service posts to the pass-through, which hands each callback on unchanged to the worker's
      // receiver at the path of its own URL, as scale-out.md's TLS proxy does.
      const receiver = callbacks ? await callbackProxy() : null;
      if (receiver) receivers.push(receiver);
      const place = {
        name,
        queue: redis.url,
        baseUrl: toWorkers.url,
        apiKey: sandbox.apiKey,
        concurrency: CONCURRENCY,
        // The workers share the sandbox's rate, as a team that knows its account's limit runs them.
        rate: RATE_LIMIT,
        callbacks: receiver
          ? { url: `${receiver.url}/${name}`, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret }
          : undefined,
      };
      const worker = await startWorker({
        ...place,
        dataDir: join(work, `${name}-data`),
        out: join(work, `${name}-out`),
      });
      started.push(worker);
      running.push(worker);
      if (receiver && worker.receiverPort !== null) receiver.target(worker.receiverPort);
    }
    const pids = started.map((w) => w.child.pid);
    const workersStarting = pids.reduce<number>((all, pid) => all + (workerCpuSeconds(pid)?.own ?? 0), 0);
    const base: Sample = {
      rows: 0,
      workerRss: pids.map((pid) => workerResidentMb(pid) ?? 0),
      redis: (await redisMemory(records)).used,
    };
    const out = join(work, 'out');
    const commandStarted = performance.now();
    const campaign = runCampaign({
      ...inputs,
      out,
      queue: redis.url,
      baseUrl: toStudio.url,
      apiKey: sandbox.apiKey,
      dataDir: join(work, 'studio-data'),
    });
    running.push(campaign);
    const followed = await followRun({
      records,
      names,
      pids,
      workers: started,
      campaign,
      sandboxPid: sandbox.child.pid,
      rows: ROWS,
      earlyRows: EARLY_ROWS,
    });
    const { code, out: printed, at: ended } = await campaign.exited;
    if (code !== 0 && code !== 1) throw new Error(`campaign run exited ${code}: ${campaign.said()}`);
    // The workers' CPU to the end of the run, before they stop.
    const workerCpu = pids.map((pid, i) => workerCpuSeconds(pid) ?? followed.cpu.workers[i]);
    for (const worker of started) await stopProcess(worker);
    const reference: [number, number] = [referenceBefore, referenceCpuSeconds()];
    const rows = (JSON.parse(printed) as { rows: EndedRow[] }).rows;
    const done = rows.filter((r) => r.state === 'done' && r.file !== null && existsSync(join(out, r.file))).length;
    const failed = rows.filter((r) => r.state === 'failed' && r.problems.length > 0).length;
    const problems = new Map<string, number>();
    for (const r of rows)
      if (r.state !== 'done') for (const p of r.problems) problems.set(p, (problems.get(p) ?? 0) + 1);
    const { peak: redisPeak, used: redisAfter } = await redisMemory(records);
    const keysAfter = await records.dbsize();
    // The sandbox writes its records down as it closes: read once it has exited.
    await stopSandbox(sandbox);
    const stalls = sandboxStalls(sandbox.said());
    const perRow = createdPerRow(sandbox);
    const received = callbacks ? sumCounts(receivers.map((r) => r.counts())) : null;
    for (const [reason, n] of sandboxFailures(sandbox)) problems.set(`the sandbox failed ${reason}`, n);
    const twice = new Set([...perRow].filter(([, n]) => n > 1).map(([key]) => key.split(':')[0])).size;
    return {
      workers,
      callbacks,
      loadAtStart,
      received,
      sent: callbacks ? sandboxCallbacks(sandbox) : null,
      seconds: (ended - (toStudio.firstAt() ?? commandStarted)) / 1000,
      commandSeconds: (ended - commandStarted) / 1000,
      requests: toWorkers.requests() + toStudio.requests(),
      studioRequests: toStudio.requests(),
      sandboxOwn: toWorkers.sandboxOwn() + toStudio.sandboxOwn(),
      workersSpan: spanOf(toWorkers.arrivals(), toStudio.firstAt() ?? commandStarted),
      polls: toWorkers.polls() + toStudio.polls(),
      rateLimited: toWorkers.rateLimited() + toStudio.rateLimited(),
      studioRateLimited: toStudio.rateLimited(),
      stalls,
      mostInSecond: mostInAnyWindow([...toWorkers.arrivals(), ...toStudio.arrivals()], 1000),
      pace: perSecondByTenth(
        [...toWorkers.arrivals(), ...toStudio.arrivals()],
        toStudio.firstAt() ?? commandStarted,
        ended,
      ),
      done,
      failed,
      lost: ROWS - done - failed,
      twice,
      sandboxJobs: [...perRow.values()].reduce((a, b) => a + b, 0),
      paths: perRowByPath([toWorkers.byPath(), toStudio.byPath()], ROWS),
      problems,
      byKind: jobsByKind(names.map((name) => join(work, `${name}-data`))),
      base,
      early: followed.early,
      end: followed.end,
      rssPoints: followed.rssPoints,
      redisPeak,
      redisAfter,
      keysAfter,
      cpu: { ...followed.cpu, workers: workerCpu },
      earlyCpu: followed.earlyCpu,
      reference,
      workersStarting,
    };
  } finally {
    for (const process of running) if (process.child.exitCode === null) process.child.kill('SIGKILL');
    records.disconnect();
    for (const receiver of receivers) await receiver.close();
    await toWorkers.close();
    await toStudio.close();
    await stopSandbox(sandbox);
    await redis.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The first and last of `times` (performance.now()), in seconds from `from`. */
function spanOf(times: readonly number[], from: number): [number, number] {
  let [first, last] = [Infinity, -Infinity];
  for (const t of times) [first, last] = [Math.min(first, t), Math.max(last, t)];
  return times.length === 0 ? [0, 0] : [(first - from) / 1000, (last - from) / 1000];
}

function sumCounts(each: readonly CallbackCounts[]): CallbackCounts {
  const all: CallbackCounts = { received: 0, taken: 0, replayed: 0, notYet: 0, refused: 0 };
  for (const c of each) for (const key of Object.keys(all) as (keyof CallbackCounts)[]) all[key] += c[key];
  return all;
}

const sum = (c: Cpu) => c.own + c.children;
const total = (each: readonly Cpu[]): Cpu =>
  each.reduce((a, c) => ({ own: a.own + c.own, children: a.children + c.children }), { own: 0, children: 0 });
const cpuMs = (c: Cpu) => `${((c.own * 1000) / ROWS).toFixed(0)} + ${((c.children * 1000) / ROWS).toFixed(0)}`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const bound = (o: Outcome) => o.requests / RATE_LIMIT;

function outcomeLine(o: Outcome): string {
  const cells = [
    String(o.workers).padStart(7),
    (o.callbacks ? 'callbacks' : 'polling').padStart(9),
    `${o.seconds.toFixed(1).padStart(7)} s`,
    `${bound(o).toFixed(1).padStart(7)} s`,
    (o.seconds / bound(o)).toFixed(2).padStart(10),
    (o.requests / ROWS).toFixed(2).padStart(8),
    (o.polls / ROWS).toFixed(2).padStart(10),
    ((o.requests - o.studioRequests) / ROWS).toFixed(2).padStart(11),
    String(o.rateLimited).padStart(6),
    String(o.done).padStart(6),
    String(o.failed).padStart(7),
    String(o.lost).padStart(5),
    String(o.twice).padStart(6),
    `${o.commandSeconds.toFixed(1).padStart(8)} s`,
  ];
  return cells.join(' ');
}

/** Growth since the workers started, per row ended: RSS of all workers together (kB), Redis (kB). */
function perRow(o: Outcome, s: Sample): { rss: number; redis: number } {
  const grown = s.workerRss.reduce((sum, rss, i) => sum + rss - o.base.workerRss[i], 0);
  return { rss: (grown * 1024) / s.rows, redis: (s.redis - o.base.redis) / 1024 / s.rows };
}

function memoryLines(o: Outcome): string[] {
  const lines: string[] = [];
  for (const s of [o.early, o.end]) {
    if (!s) continue;
    const each = s.workerRss.map((r) => r.toFixed(0)).join('/');
    const per = perRow(o, s);
    lines.push(
      `${String(o.workers).padStart(7)} ${(o.callbacks ? 'callbacks' : 'polling').padStart(9)} ${String(s.rows).padStart(6)} ${each.padStart(16)} MB ${per.rss.toFixed(2).padStart(9)} kB ${(s.redis / 2 ** 20).toFixed(1).padStart(8)} MB ${per.redis.toFixed(2).padStart(9)} kB`,
    );
  }
  return lines;
}

/** Cores the run's processes (workers, studio, sandbox) used on average over its wall. */
/** CPU seconds the run's processes (workers, studio, sandbox) used, their children included. */
const cpuSecondsAll = (o: Outcome) => sum(total(o.cpu.workers)) + sum(o.cpu.studio) + sum(o.cpu.sandbox);
const coresUsed = (o: Outcome) => cpuSecondsAll(o) / o.seconds;

/** The machine's speed around the run, from the reference work, and the run's CPU a row as a ratio to it. */
function referenceLine(o: Outcome, cpuPerRow: number): string {
  const [before, after] = o.reference;
  const mean = (before + after) / 2;
  return `${who(o)}: reference work (test/bench/cpu-reference.ts, the median of three): ${before.toFixed(2)} s of CPU before the run, ${after.toFixed(2)} s after; CPU per row ÷ the reference's mean: ${(cpuPerRow / 1000 / mean).toFixed(3)} (a slower machine raises both alike)`;
}

/** CPU a row from the early mark to the end: each worker's start and first rows (its code compiled as it first runs) left out. */
function steadyCpu(o: Outcome): string | null {
  const early = o.earlyCpu;
  if (!early || !o.early || !o.end) return null;
  const rows = o.end.rows - o.early.rows;
  if (rows <= 0) return null;
  const ms = (now: Cpu, then: Cpu) => ((sum(now) - sum(then)) * 1000) / rows;
  const workers = ms(total(o.cpu.workers), total(early.workers));
  const studio = ms(o.cpu.studio, early.studio);
  const sandbox = ms(o.cpu.sandbox, early.sandbox);
  return `${who(o)}: CPU per row from ${o.early.rows} to ${o.end.rows} rows ended (the steady part): ${(workers + studio + sandbox).toFixed(0)} ms (workers ${workers.toFixed(0)}, studio ${studio.toFixed(0)}, sandbox ${sandbox.toFixed(0)})`;
}

function aimLines(o: Outcome): string[] {
  const share = o.rateLimited / o.requests;
  const ratio = o.seconds / bound(o);
  const lines = [
    `${who(o)}: workers' jobs: ${o.byKind}`,
    `${who(o)}: requests per row by path: ${o.paths} (the sandbox's own routes, /__sandbox/…, are its storage's and not among req/row: ${(o.sandboxOwn / ROWS).toFixed(2)} a row); the workers' requests from ${o.workersSpan[0].toFixed(1)} s to ${o.workersSpan[1].toFixed(1)} s of the wall`,
    `${who(o)}: CPU per row, own + children (ffprobe, ffmpeg): workers ${cpuMs(total(o.cpu.workers))} ms (${o.cpu.workers.map((c) => c.own.toFixed(0)).join('/')} s each; ${(((total(o.cpu.workers).own - o.workersStarting) * 1000) / ROWS).toFixed(0)} ms own after their start, ${o.workersStarting.toFixed(1)} s before), studio ${cpuMs(o.cpu.studio)} ms, sandbox ${cpuMs(o.cpu.sandbox)} ms; all over the wall: ${coresUsed(o).toFixed(2)} of ${cpus().length} cores; load average ${o.loadAtStart.toFixed(2)} when this run started`,
    `${who(o)}: 1005 answers: ${o.rateLimited - o.studioRateLimited} to workers, ${o.studioRateLimited} to the studio; the most requests reaching the sandbox in any second: ${o.mostInSecond} (its rate ${RATE_LIMIT}), a second in each tenth of the wall: ${o.pace.map((n) => n.toFixed(0)).join(' ')}; ${stallsLine(o.stalls)}`,
    ...[...o.problems].map(([problem, n]) => `${who(o)}: ${n} failed: ${problem}`),
    // A run with callbacks says its rows lost and created twice with the rest of its aims (callbackLines).
    `${who(o)}: ${o.callbacks ? '' : `aim 0 rows lost: ${met(o.lost === 0)} (${o.lost}); aim 0 created twice (the sandbox's records): ${met(o.twice === 0)} (${o.twice}); `}aim 1005 answers under 0.1% of requests: ${met(share < 0.001)} (${(share * 100).toFixed(3)}%)`,
  ];
  if (o.workers === 4 && !o.callbacks)
    lines.push(`4 workers: aim wall within 1.1 times the bound: ${met(ratio <= 1.1)} (${ratio.toFixed(2)})`);
  const cpuPerRow = (cpuSecondsAll(o) * 1000) / ROWS;
  lines.push(
    `${who(o)}: aim CPU per row over every process at most ${AIM_CPU_MS_PER_ROW} ms: ${met(cpuPerRow <= AIM_CPU_MS_PER_ROW)} (${cpuPerRow.toFixed(0)} ms)`,
    referenceLine(o, cpuPerRow),
  );
  const steady = steadyCpu(o);
  if (steady) lines.push(steady);
  if (o.early && o.end) {
    const [early, end] = [perRow(o, o.early), perRow(o, o.end)];
    const between = o.end.rows - o.early.rows;
    const rssSlope = (o.end.workerRss.reduce((a, b) => a + b, 0) - o.early.workerRss.reduce((a, b) => a + b, 0)) * 1024;
    const fitted = growthPerRow(o.rssPoints.filter((p) => p.rows >= (o.early?.rows ?? 0)));
    if (fitted)
      lines.push(
        `${who(o)}: aim worker RSS (all workers together) growing at most ${AIM_RSS_KB_PER_ROW} kB a row from ${o.early.rows} to ${o.end.rows} rows ended: ${met(fitted.kb <= AIM_RSS_KB_PER_ROW)} (${fitted.kb.toFixed(2)} kB, the slope of a line fitted through ${fitted.points} readings; between the two marks alone ${(rssSlope / between).toFixed(2)} kB)`,
      );
    lines.push(
      `${who(o)}: per row at ${o.end.rows} / at ${o.early.rows} rows ended (1.00 is flat; aim at most 1.1): worker RSS ${(end.rss / early.rss).toFixed(2)} (${met(end.rss / early.rss <= 1.1)}), Redis ${(end.redis / early.redis).toFixed(2)} (${met(end.redis / early.redis <= 1.1)}); Redis peak ${((o.redisPeak - o.base.redis) / 1024 / ROWS).toFixed(2)} kB per row of the run; left after the run ${((o.redisAfter - o.base.redis) / 1024 / ROWS).toFixed(2)} kB per row in ${o.keysAfter} keys; from ${o.early.rows} to ${o.end.rows} rows ended, per row: worker RSS ${(rssSlope / between).toFixed(2)} kB, Redis ${((o.end.redis - o.early.redis) / 1024 / between).toFixed(2)} kB`,
    );
  }
  return lines;
}

/**
 * Where in docs/performance.md this run's figures go: the default run (10,000 rows, every worker count)
 * in `scale`, any other choice in a block named after it, so a 100,000-row run or one worker count
 * measured alone does not replace the others' figures.
 */
export function figuresName(): string {
  const env = process.env;
  const parts = [
    'scale',
    ROWS !== 10_000 && `${ROWS}-rows`,
    env.SCALE_WORKERS && `${env.SCALE_WORKERS.replaceAll(',', '-')}-workers`,
    env.SCALE_CALLBACKS && `callbacks-${env.SCALE_CALLBACKS}`,
    env.SCALE_RATE && `rate-${env.SCALE_RATE}`,
    env.SCALE_CONCURRENCY && `concurrency-${env.SCALE_CONCURRENCY}`,
  ];
  return parts.filter(Boolean).join('-');
}

export async function run(): Promise<void> {
  const fixtureDir = mkdtempSync(join(tmpdir(), 'studio-bench-scale-fixture-'));
  const outcomes: Outcome[] = [];
  // Every run planned before the first starts: a mistyped SCALE_CALLBACKS is said at once, not an hour in.
  const plan = WORKER_COUNTS.flatMap((workers) => callbackRuns(workers).map((callbacks) => ({ workers, callbacks })));
  try {
    const made = await readyMade(fixtureDir);
    for (const { workers, callbacks } of plan) outcomes.push(await measure(workers, callbacks, made));
  } finally {
    rmSync(fixtureDir, { recursive: true, force: true });
  }
  console.log(
    `${ROWS} rows of a two-scene template (2 voiceovers + 1 avatar video of 320x180 + download per row) queued on Redis by \`campaign run --queue\` and made by \`studio worker\` processes (${CONCURRENCY ?? '32'} rows at once each${CONCURRENCY === undefined ? ', the default' : ''}; --rate ${RATE_LIMIT} shared); sandbox in its own process at ${RATE_LIMIT} requests/s, jobs of at least ${JOB_SECONDS} s, a ready-made sound and video for every job; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${cpus().length} cores`,
  );
  console.log(
    `wall: from the studio's first request to the command's exit; bound: every request made (workers' and studio's) ÷ ${RATE_LIMIT} per s; requests counted by a pass-through in front of the sandbox, the service's interface only (the sandbox's own routes, its storage for the rows' pictures, are counted apart: a bucket's, not held to the rate)`,
  );
  if (plan.some((p) => p.callbacks))
    console.log(
      "follows: polling, or callbacks (each worker given --callback-url to its own receiver on loopback, listening at a port of its choice behind a pass-through that counts the receiver's answers; the sandbox's client credentials in its environment); a pair runs on the same sandbox settings and rate, one after the other",
    );
  console.log(
    `${'workers'.padStart(7)} ${'follows'.padStart(9)} ${'wall'.padStart(9)} ${'bound'.padStart(9)} ${'wall/bound'.padStart(10)} ${'req/row'.padStart(8)} ${'polls/row'.padStart(10)} ${'workers/row'.padStart(11)} ${'1005s'.padStart(6)} ${'done'.padStart(6)} ${'failed'.padStart(7)} ${'lost'.padStart(5)} ${'twice'.padStart(6)} ${'command'.padStart(10)}`,
  );
  for (const o of outcomes) console.log(outcomeLine(o));
  console.log(
    "memory when the rows ended (as the workers say) first passed each count; growth since the workers started, per row ended: all workers' RSS together, and Redis used_memory",
  );
  console.log(
    `${'workers'.padStart(7)} ${'follows'.padStart(9)} ${'rows'.padStart(6)} ${'worker RSS'.padStart(16)}    ${'RSS/row'.padStart(12)} ${'Redis'.padStart(11)} ${'Redis/row'.padStart(12)}`,
  );
  for (const o of outcomes) for (const line of memoryLines(o)) console.log(line);
  for (const o of outcomes) for (const line of aimLines(o)) console.log(line);
  for (const o of outcomes) {
    if (!o.callbacks) continue;
    const polling = outcomes.find((p) => p.workers === o.workers && !p.callbacks);
    for (const line of callbackLines(
      { ...o, cores: coresUsed(o) },
      polling && { ...polling, cores: coresUsed(polling) },
      ROWS,
      RATE_LIMIT,
    ))
      console.log(line);
  }
}
