// Job polling, measured twice. First, in virtual time, jobs of lengths spread from seconds to minutes
// followed with the plain strategy (the baseline) and the learnt one (jobs-spread.ts). Then 1,000
// concurrent jobs against the sandbox (run in its own process), followed once by the job engine and
// once by a naive poller that asks about every job every 2 s. Reports requests per job, the delay
// between the sandbox finishing a job and the follower seeing it (p50, p95), and the follower's CPU
// time, each as a ratio engine / naive. BENCH_ONLY=spread, engine or naive runs one part.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient, type FetchLike } from '../../electron/services/client';
import { JobEngine } from '../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../electron/services/jobs/ledger';
import { openLedger } from '../../electron/services/records/open-ledger';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { runSpread } from './jobs-spread';
import { readSandboxRecords } from '../../electron/emulator/state/store';

const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const JOB_SECONDS = 20;
const NAIVE_INTERVAL_MS = 2000;
const root = join(import.meta.dirname, '..', '..');

export interface Sandbox {
  url: string;
  apiKey: string;
  /** The client credentials the sandbox seals its callbacks with (for a callback receiver). */
  clientId: string;
  clientSecret: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything it has printed on stdout so far, the first line included. */
  said: () => string;
}

/**
 * The sandbox in its own process (so the follower's CPU is measured alone), with these options, and
 * these node flags and environment for the process.
 */
export async function startSandbox(
  dataDir: string,
  overrides: Record<string, unknown> = { jobSeconds: JOB_SECONDS, failRate: 0.98 },
  run: { nodeFlags?: readonly string[]; env?: Record<string, string> } = {},
): Promise<Sandbox> {
  const options = {
    dataDir,
    credits: 1_000_000,
    catalogueDir: join(tmpdir(), 'avatar-studio-test-catalogue'),
    ...overrides,
  };
  const child = spawn(
    process.execPath,
    [
      ...(run.nodeFlags ?? []),
      '--import',
      'tsx',
      join(root, 'test/unit/jobs/emulator-child.ts'),
      JSON.stringify(options),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...run.env } },
  );
  let buffer = '';
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.includes('\n')) resolve(buffer.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const { url, apiKey, clientId, clientSecret } = JSON.parse(line) as Omit<Sandbox, 'dataDir' | 'child' | 'said'>;
  return { url, apiKey, clientId, clientSecret, dataDir, child, said: () => buffer };
}

/** When the sandbox finished each job (its own records), by record id. */
function finishTimes(dataDir: string): Map<string, number> {
  const state = readSandboxRecords(dataDir).state as {
    jobs: Record<string, { status: number; updatedAt: number }>;
  };
  return new Map(
    Object.entries(state.jobs)
      .filter(([, j]) => j.status === 3 || j.status === 4)
      .map(([id, j]) => [id, j.updatedAt]),
  );
}

export function counting(): { fetch: FetchLike; polls: () => number; creates: () => number; latency: () => number } {
  let polls = 0;
  let creates = 0;
  let total = 0;
  return {
    fetch: async (input, init) => {
      if (input.includes('/infobymodelid')) polls += 1;
      else creates += 1;
      const started = performance.now();
      try {
        return await fetch(input, init);
      } finally {
        total += performance.now() - started;
      }
    },
    polls: () => polls,
    creates: () => creates,
    latency: () => total / Math.max(1, polls + creates),
  };
}

export const body = (i: number) => ({ input_text: `Benchmark sentence ${i}.`, voice_id: 'sandbox_ava', rate: '50%' });

export async function pool(count: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

interface Result {
  label: string;
  pollsPerJob: number;
  p50: number;
  p95: number;
  cpuMs: number;
  wallMs: number;
  seen: number;
}

export const cpuMs = (used: NodeJS.CpuUsage): number => (used.user + used.system) / 1000;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function summarise(
  label: string,
  jobs: number,
  seenAt: Map<string, number>,
  finished: Map<string, number>,
  polls: number,
  cpu: NodeJS.CpuUsage,
  wallMs: number,
): Result {
  const delays = [...seenAt]
    .filter(([id]) => finished.has(id))
    .map(([id, at]) => at - (finished.get(id) as number))
    .sort((a, b) => a - b);
  return {
    label,
    pollsPerJob: polls / jobs,
    p50: quantile(delays, 0.5),
    p95: quantile(delays, 0.95),
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
    seen: delays.length,
  };
}

/**
 * BENCH_DEBUG=1: where the engine's requests went. Jobs by order of creation in tenths: the median delay
 * before their end was seen, their mean polls and mean length (a queue that drains in order makes later
 * jobs longer, which a prediction by kind alone cannot see).
 */
function describeEngineRun(
  jobs: JobRecord[],
  seenAt: Map<string, number>,
  finished: Map<string, number>,
  meanRequestMs: number,
): void {
  console.log(`engine mean request ${meanRequestMs.toFixed(1)} ms`);
  const byAge = [...jobs].sort((a, b) => a.createdAt - b.createdAt);
  const tenths = Array.from({ length: 10 }, (_, d) =>
    byAge.slice((d * byAge.length) / 10, ((d + 1) * byAge.length) / 10),
  );
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  console.log('by tenth of creation order (median delay s / mean polls / mean length s):');
  console.log(
    tenths
      .map((group) => {
        const ended = (j: JobRecord): number => finished.get(j.remoteId ?? '') ?? Number.NaN;
        const delays = group.map((j) => (seenAt.get(j.remoteId ?? '') ?? Number.NaN) - ended(j)).sort((a, b) => a - b);
        const lengths = group.map((j) => (ended(j) - (j.sentAt ?? j.createdAt)) / 1000);
        return `${(quantile(delays, 0.5) / 1000).toFixed(2)} / ${mean(group.map((j) => j.polls)).toFixed(1)} / ${mean(lengths).toFixed(1)}`;
      })
      .join('   '),
  );
}

async function runEngine(sandbox: Sandbox, ledgerDir: string, jobs = JOBS): Promise<Result> {
  const counter = counting();
  const client = new ServiceClient({
    baseUrl: sandbox.url,
    credentials: { kind: 'api-key', apiKey: sandbox.apiKey },
    fetch: counter.fetch,
  });
  const seenAt = new Map<string, number>();
  const engine = new JobEngine({
    // BENCH_MEMORY_LEDGER=1 separates the cost of durable ledger writes from the cost of polling.
    storage: process.env.BENCH_MEMORY_LEDGER ? new MemoryLedgerStorage() : openLedger(ledgerDir),
    connections: {
      active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
  });
  engine.subscribe((job) => {
    if ((job.phase === 'completed' || job.phase === 'failed') && job.remoteId && !seenAt.has(job.remoteId))
      seenAt.set(job.remoteId, Date.now());
  });
  engine.start();
  const cpu = process.cpuUsage();
  const started = Date.now();
  await pool(jobs, 8, async (i) => {
    await engine.submit({ confirmation: { by: 'script' }, kind: 'tts', body: body(i) });
  });
  if (process.env.BENCH_DEBUG)
    console.log(
      `engine: ${jobs} creates took ${Date.now() - started} ms and ${cpuMs(process.cpuUsage(cpu)).toFixed(0)} ms of CPU`,
    );
  while (engine.activeCount > 0) await new Promise((r) => setTimeout(r, 200));
  const wall = Date.now() - started;
  engine.stop();
  // The ledger's last writes are part of the engine's cost.
  await engine.flush();
  const used = process.cpuUsage(cpu);
  if (process.env.BENCH_DEBUG) console.log('engine cpu user/system ms', used.user / 1000, used.system / 1000);
  if (process.env.BENCH_DEBUG)
    describeEngineRun(engine.records(), seenAt, finishTimes(sandbox.dataDir), counter.latency());
  return summarise('engine', jobs, seenAt, finishTimes(sandbox.dataDir), counter.polls(), used, wall);
}

async function runNaive(sandbox: Sandbox, jobs = JOBS): Promise<Result> {
  const counter = counting();
  const client = new ServiceClient({
    baseUrl: sandbox.url,
    credentials: { kind: 'api-key', apiKey: sandbox.apiKey },
    fetch: counter.fetch,
  });
  const seenAt = new Map<string, number>();
  const open = new Set<string>();
  const cpu = process.cpuUsage();
  const started = Date.now();
  // The usual first attempt: a timer that asks about every unfinished job, all at once, every 2 s.
  const timer = setInterval(() => {
    for (const id of open) {
      void client.call('audioInfo', { audio_model_id: id }).then(
        (record) => {
          if ((record.status === 3 || record.status === 4) && open.delete(id)) seenAt.set(id, Date.now());
        },
        () => undefined,
      );
    }
  }, NAIVE_INTERVAL_MS);
  await pool(jobs, 8, async (i) => {
    const record = await client.call('audioCreate', body(i));
    open.add(record._id);
  });
  if (process.env.BENCH_DEBUG)
    console.log(
      `naive: ${jobs} creates took ${Date.now() - started} ms and ${cpuMs(process.cpuUsage(cpu)).toFixed(0)} ms of CPU`,
    );
  while (open.size > 0) await new Promise((r) => setTimeout(r, 200));
  clearInterval(timer);
  const used = process.cpuUsage(cpu);
  if (process.env.BENCH_DEBUG) console.log('naive cpu user/system ms', used.user / 1000, used.system / 1000);
  return summarise(
    'naive (2 s)',
    jobs,
    seenAt,
    finishTimes(sandbox.dataDir),
    counter.polls(),
    used,
    Date.now() - started,
  );
}

function row(r: Result): string {
  return `${r.label.padEnd(12)} ${r.pollsPerJob.toFixed(2).padStart(8)} ${(r.p50 / 1000).toFixed(2).padStart(9)} s ${(r.p95 / 1000).toFixed(2).padStart(9)} s ${r.cpuMs.toFixed(0).padStart(9)} ms ${(r.wallMs / 1000).toFixed(1).padStart(8)} s ${String(r.seen).padStart(6)}`;
}

export async function run(): Promise<void> {
  if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'spread') {
    await runSpread();
    if (process.env.BENCH_ONLY) return;
  }
  const work = mkdtempSync(join(tmpdir(), 'studio-jobs-bench-'));
  const results: Result[] = [];
  try {
    // Untimed: both followers share the service client, and whichever ran first paid for compiling it
    // (about 0.5 s of CPU, in the engine's figures, as it runs first); each runs a small burst here.
    const warmUp = await startSandbox(join(work, 'sandbox-warm-up'), { jobSeconds: 1, failRate: 0.98 });
    try {
      await runEngine(warmUp, join(work, 'ledger-warm-up'), 200);
      await runNaive(warmUp, 200);
    } finally {
      warmUp.child.kill('SIGTERM');
      await new Promise((r) => warmUp.child.once('exit', r));
    }
    for (const which of (process.env.BENCH_ONLY ? [process.env.BENCH_ONLY] : ['engine', 'naive']) as (
      'engine' | 'naive'
    )[]) {
      const sandbox = await startSandbox(join(work, `sandbox-${which}`));
      try {
        results.push(which === 'engine' ? await runEngine(sandbox, join(work, 'ledger')) : await runNaive(sandbox));
      } finally {
        sandbox.child.kill('SIGTERM');
        await new Promise((r) => sandbox.child.once('exit', r));
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `${JOBS} concurrent TTS jobs of ${JOB_SECONDS} s each (98% end as injected failures, so the sandbox renders only ~20 of them); same machine, same run`,
  );
  console.log(
    `${'follower'.padEnd(12)} ${'polls/job'.padStart(8)} ${'p50 delay'.padStart(11)} ${'p95 delay'.padStart(11)} ${'CPU'.padStart(12)} ${'wall'.padStart(10)} ${'jobs'.padStart(6)}`,
  );
  for (const result of results) console.log(row(result));
  const [engine, naive] = results;
  if (engine && naive) {
    console.log(
      `ratios engine / naive: requests per job ${(engine.pollsPerJob / naive.pollsPerJob).toFixed(2)}, p50 delay ${(engine.p50 / naive.p50).toFixed(2)}, p95 delay ${(engine.p95 / naive.p95).toFixed(2)}, CPU ${(engine.cpuMs / naive.cpuMs).toFixed(2)}`,
    );
    const aims: [string, number, number][] = [
      ['requests per job', engine.pollsPerJob / naive.pollsPerJob, 0.3],
      ['p50 delay', engine.p50 / naive.p50, 1],
      ['p95 delay', engine.p95 / naive.p95, 1],
      ['CPU', engine.cpuMs / naive.cpuMs, 1.1],
    ];
    for (const [label, ratio, aim] of aims)
      console.log(`aim ${label} <= ${aim}x naive: ${ratio <= aim ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`);
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${cpus().length} cores`,
  );
  console.log(
    `(the engine also writes each job durably to its ledger: before its create, with its id, and at its end${process.env.BENCH_MEMORY_LEDGER ? '; this run kept the ledger in memory' : ''}; the naive poller keeps nothing)`,
  );
}
