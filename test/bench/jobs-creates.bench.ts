// Paid creates through the job engine on one connection, against the sandbox in its own process with
// its request rate limited per credential (as the service does): how many requests each create costs
// (the create itself, its retries after a 1005, the balance reads around it) and how many creates a
// second go through against that rate. Creates go out side by side; the balance is read around a
// create only when it is made by hand with nothing else being created, or when its price cannot be
// said ahead (the first speech job of a connection). Polls of jobs already made (the engine's timers
// are off, but each new job's scheduling polls those that are due) are counted apart. Runs with `npm run bench jobs-creates` (its own block in docs/performance.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PATHS } from '../../electron/common/api/paths';
import type { JobSubmission } from '../../electron/common/bridge/jobs';
import { ServiceClient, type FetchLike } from '../../electron/services/client';
import { JobEngine } from '../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../electron/services/jobs/ledger';
import { body, cpuMs, pool, startSandbox, type Sandbox } from './jobs.bench';

const CREATES = Number(process.env.BENCH_CREATES ?? 200);
const BY_HAND = Number(process.env.BENCH_BY_HAND ?? 20);
/** Requests per second per credential the sandbox allows before it answers 1005. */
const RATE = Number(process.env.BENCH_RATE ?? 20);

interface CreatesResult {
  label: string;
  creates: number;
  wallMs: number;
  cpuMs: number;
  requests: number;
  polls: number;
  balanceReads: number;
  tooFrequent: number;
  bySource: Map<string, number>;
}

/** Counts requests by what they are, and the 1005 answers. */
function counting(): {
  fetch: FetchLike;
  requests: () => number;
  polls: () => number;
  balanceReads: () => number;
  tooFrequent: () => number;
  paths: Map<string, number>;
} {
  const poll: string[] = [API_PATHS.audioInfo, API_PATHS.videoInfo];
  const paths = new Map<string, number>();
  let requests = 0;
  let balanceReads = 0;
  let tooFrequent = 0;
  return {
    fetch: async (input, init) => {
      requests += 1;
      const key = new URL(input).pathname;
      paths.set(key, (paths.get(key) ?? 0) + 1);
      if (input.includes(API_PATHS.quotaInfo)) balanceReads += 1;
      const response = await fetch(input, init);
      const text = await response.clone().text();
      if (/"code":\s*1005\b/.test(text)) tooFrequent += 1;
      return response;
    },
    requests: () => requests,
    polls: () => [...paths].filter(([path]) => poll.includes(path)).reduce((sum, [, n]) => sum + n, 0),
    balanceReads: () => balanceReads,
    tooFrequent: () => tooFrequent,
    paths,
  };
}

/**
 * `creates` speech creates through an engine built as the studio builds it (a balance source on), each
 * connection a fresh one (no charge history). `row`: a batch's rows, `width` at a time; else jobs made by
 * hand, `width` at a time.
 */
async function runCreates(
  sandbox: Sandbox,
  label: string,
  creates: number,
  width: number,
  row: boolean,
): Promise<CreatesResult> {
  const counter = counting();
  const client = new ServiceClient({
    baseUrl: sandbox.url,
    credentials: { kind: 'api-key', apiKey: sandbox.apiKey },
    fetch: counter.fetch,
  });
  const connectionId = `sandbox-${label}`;
  const engine = new JobEngine({
    storage: new MemoryLedgerStorage(),
    connections: {
      active: async () => ({ id: connectionId, name: 'Sandbox', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
    // Its timers are off: a job already made is polled only when a new one's scheduling finds it due.
    timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    balance: async () => (await client.call('quotaInfo', {})).credit,
  });
  engine.start({ poll: false });
  const submission = (i: number): JobSubmission =>
    row
      ? {
          kind: 'tts',
          body: body(i),
          purpose: { type: 'batch-row', batchId: 'bench', row: i },
          confirmation: { by: 'batch', batchId: 'bench' },
        }
      : { kind: 'tts', body: body(i), confirmation: { by: 'user', credits: null } };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await pool(creates, width, async (i) => {
    await engine.submit(submission(i));
  });
  const wallMs = performance.now() - started;
  const used = cpuMs(process.cpuUsage(cpu));
  engine.stop();
  if (process.env.BENCH_DEBUG) console.error(label, Object.fromEntries(counter.paths));
  const bySource = new Map<string, number>();
  for (const r of engine.records()) {
    const source = r.remoteId === null ? `not sent (${r.phase})` : (r.chargeSource ?? 'none');
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
  return {
    label,
    creates,
    wallMs,
    cpuMs: used,
    requests: counter.requests() - counter.polls(),
    polls: counter.polls(),
    balanceReads: counter.balanceReads(),
    tooFrequent: counter.tooFrequent(),
    bySource,
  };
}

export async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'studio-creates-bench-'));
  const sandbox = await startSandbox(join(work, 'sandbox-creates'), {
    jobSeconds: 600,
    failRate: 0,
    rateLimit: RATE,
  });
  const results: CreatesResult[] = [];
  try {
    // Untimed warm-up, then each path on a connection of its own.
    await runCreates(sandbox, 'warm-up', 20, 8, true);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    results.push(await runCreates(sandbox, 'batch rows', CREATES, 8, true));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    results.push(await runCreates(sandbox, 'by hand, 1 at a time', BY_HAND, 1, false));
  } finally {
    sandbox.child.kill('SIGTERM');
    await new Promise((r) => sandbox.child.once('exit', r));
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `TTS creates on one connection against the sandbox in its own process, which allows ${RATE} requests a second per credential (then 1005); requests/create counts creates, their retries and balance reads, polls apart`,
  );
  console.log(
    `${'creates'.padEnd(22)} ${'n'.padStart(4)} ${'wall'.padStart(8)} ${'creates/s'.padStart(10)} ${'of rate'.padStart(8)} ${'CPU'.padStart(8)} ${'requests/create'.padStart(16)} ${'balance reads'.padStart(14)} ${'1005s'.padStart(6)} ${'polls'.padStart(6)}  charges`,
  );
  for (const r of results) {
    const perSecond = r.creates / (r.wallMs / 1000);
    const sources = [...r.bySource].map(([source, n]) => `${n} ${source}`).join(', ');
    console.log(
      `${r.label.padEnd(22)} ${String(r.creates).padStart(4)} ${(r.wallMs / 1000).toFixed(2).padStart(6)} s ${perSecond.toFixed(1).padStart(10)} ${`${Math.round((perSecond / RATE) * 100)}%`.padStart(8)} ${r.cpuMs.toFixed(0).padStart(5)} ms ${(r.requests / r.creates).toFixed(2).padStart(16)} ${String(r.balanceReads).padStart(14)} ${String(r.tooFrequent).padStart(6)} ${String(r.polls).padStart(6)}  ${sources}`,
    );
  }
  const [rows] = results;
  console.log(
    `(at ${RATE} requests a second, ${(rows.requests / rows.creates).toFixed(2)} requests per create allow at most ${(RATE / (rows.requests / rows.creates)).toFixed(1)} creates a second; the creates sent one at a time with the balance read around each took 3.06 requests per create before this change, at most ${(RATE / 3.06).toFixed(1)} a second)`,
  );
}
