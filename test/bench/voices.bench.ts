// Batch voiceovers, measured: 1,000 TTS rows against the sandbox (its own process) with its rate limit on
// and 5% of jobs failing, sent by the studio's batch (job engine + the row engine) and by two baselines in
// the same run: one request at a time, and every row at once against a sandbox with no limit. Reports
// wall time, requests per row, rate-limit answers (1005), rows completed, and rows lost or created twice.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PATHS } from '../../electron/common/api';
import { ServiceClient, type FetchLike } from '../../electron/services/client';
import { JobEngine } from '../../electron/services/jobs/engine';
import { openLedger } from '../../electron/services/records/open-ledger';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { readBatch } from '../../electron/services/voices/batch-input';
import { createBatchRows } from '../unit/voices/batch-host';
import { startSandbox, type Sandbox } from './jobs.bench';
import { readSandboxRecords } from '../../electron/emulator/state/store';
import { runsIn } from '../unit/rows/folder-runs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const RATE_LIMIT = 20;
const FAIL_RATE = 0.05;
const JOB_SECONDS = 2;
const POLL_MS = 1000;

interface Outcome {
  label: string;
  seconds: number;
  requests: number;
  rateLimited: number;
  completed: number;
  failed: number;
  lost: number;
  twice: number;
}

/** A fetch that counts every request, the polls among them, and the rate limit's refusals (code 1005) among the answers. */
export function counting(): {
  fetch: FetchLike;
  requests: () => number;
  polls: () => number;
  rateLimited: () => number;
} {
  let requests = 0;
  let polls = 0;
  let rateLimited = 0;
  return {
    fetch: async (input, init) => {
      requests += 1;
      if (input.includes('/infobymodelid')) polls += 1;
      const response = await fetch(input, init);
      const text = await response.clone().text();
      if (text.includes('"code":1005')) rateLimited += 1;
      return response;
    },
    requests: () => requests,
    polls: () => polls,
    rateLimited: () => rateLimited,
  };
}

/** The sandbox's own records: how many TTS jobs it created for each script (a row made twice has two). */
function createdPerText(sandbox: Sandbox): Map<string, number> {
  const state = readSandboxRecords(sandbox.dataDir).state as {
    jobs: Record<string, { kind: string; request: { input_text?: string } }>;
  };
  const counts = new Map<string, number>();
  for (const job of Object.values(state.jobs))
    if (job.kind === 'tts' && job.request.input_text)
      counts.set(job.request.input_text, (counts.get(job.request.input_text) ?? 0) + 1);
  return counts;
}

const scripts = Array.from({ length: ROWS }, (_, i) => `Voiceover ${i + 1} of the spring campaign.`);

async function studioBatch(sandbox: Sandbox, work: string): Promise<Omit<Outcome, 'label' | 'twice'>> {
  const counter = counting();
  const client = new ServiceClient({
    baseUrl: sandbox.url,
    credentials: { kind: 'api-key', apiKey: sandbox.apiKey },
    fetch: counter.fetch,
  });
  const engine = new JobEngine({
    storage: openLedger(work),
    connections: {
      active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
  });
  engine.start();
  const { batches: runner } = createBatchRows({ engine, runs: runsIn(work) });
  const rows = readBatch(['text', ...scripts].join('\n'), { voiceId: 'sandbox_ava' }).rows;
  const started = performance.now();
  await runner.create({ id: 'bench', label: 'bench', rows, invalid: [], concurrency: 4, template: '{row}' });
  const view = await runner.run('bench');
  const seconds = (performance.now() - started) / 1000;
  engine.stop();
  await engine.flush();
  const ended = (view.counts.completed ?? 0) + (view.counts.failed ?? 0);
  return {
    seconds,
    requests: counter.requests(),
    rateLimited: counter.rateLimited(),
    completed: view.counts.completed ?? 0,
    failed: view.counts.failed ?? 0,
    lost: ROWS - ended,
  };
}

/** What a hand-written script does: plain requests with the key, a 1005 answered by a one-second wait. */
function naiveClient(sandbox: Sandbox, counter: ReturnType<typeof counting>) {
  const send = async <T>(path: string, init?: { method: string; body: string }): Promise<T | null> => {
    for (;;) {
      const response = await counter.fetch(`${sandbox.url}${path}`, {
        method: 'GET',
        ...init,
        headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      });
      const body = (await response
        .text()
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => null)) as { code?: number; data?: T } | null;
      if (body?.code === 1005) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      return body?.code === 1000 ? (body.data ?? null) : null;
    }
  };
  return {
    create: (text: string) =>
      send<{ _id: string }>(API_PATHS.audioCreate, {
        method: 'POST',
        body: JSON.stringify({ input_text: text, voice_id: 'sandbox_ava', rate: '50%' }),
      }).then((d) => d?._id ?? null),
    status: (id: string) =>
      send<{ status: number }>(`${API_PATHS.audioInfo}?audio_model_id=${encodeURIComponent(id)}`).then(
        (d) => d?.status ?? null,
      ),
  };
}

/** A script's loop: create, then poll; every request waits for the one before. A 1005 waits a second. */
async function oneAtATime(sandbox: Sandbox): Promise<Omit<Outcome, 'label' | 'twice'>> {
  const counter = counting();
  const client = naiveClient(sandbox, counter);
  const started = performance.now();
  const ids: string[] = [];
  for (const text of scripts) {
    const id = await client.create(text);
    if (id) ids.push(id);
  }
  const status = new Map<string, number>();
  while (status.size < ids.length) {
    for (const id of ids) {
      if (status.has(id)) continue;
      const now = await client.status(id);
      if (now === 3 || now === 4) status.set(id, now);
    }
    if (status.size < ids.length) await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const completed = [...status.values()].filter((s) => s === 3).length;
  return {
    seconds: (performance.now() - started) / 1000,
    requests: counter.requests(),
    rateLimited: counter.rateLimited(),
    completed,
    failed: ids.length - completed,
    lost: ROWS - ids.length,
  };
}

/** Every row at once, then every unfinished job asked about every second, against a sandbox with no limit. */
async function allAtOnce(sandbox: Sandbox): Promise<Omit<Outcome, 'label' | 'twice'>> {
  const counter = counting();
  const client = naiveClient(sandbox, counter);
  const started = performance.now();
  const ids = (await Promise.all(scripts.map((text) => client.create(text)))).filter((id): id is string => id !== null);
  const status = new Map<string, number>();
  while (status.size < ids.length) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    await Promise.all(
      ids
        .filter((id) => !status.has(id))
        .map(async (id) => {
          const now = await client.status(id);
          if (now === 3 || now === 4) status.set(id, now);
        }),
    );
  }
  const completed = [...status.values()].filter((s) => s === 3).length;
  return {
    seconds: (performance.now() - started) / 1000,
    requests: counter.requests(),
    rateLimited: counter.rateLimited(),
    completed,
    failed: ids.length - completed,
    lost: ROWS - ids.length,
  };
}

async function measure(
  label: string,
  limited: boolean,
  fixture: string,
  send: (sandbox: Sandbox, work: string) => Promise<Omit<Outcome, 'label' | 'twice'>>,
): Promise<Outcome> {
  const work = mkdtempSync(join(tmpdir(), 'studio-bench-voices-'));
  const sandbox = await startSandbox(join(work, 'sandbox'), {
    jobSeconds: JOB_SECONDS,
    failRate: FAIL_RATE,
    rateLimit: limited ? RATE_LIMIT : 0,
    speechFixture: fixture,
  });
  try {
    const outcome = await send(sandbox, work);
    await new Promise((r) => setTimeout(r, 1500)); // the sandbox writes its state a moment later
    const twice = [...createdPerText(sandbox).values()].filter((n) => n > 1).length;
    return { label, ...outcome, twice };
  } finally {
    sandbox.child.kill('SIGTERM');
    await new Promise((r) => sandbox.child.once('exit', r));
    rmSync(work, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const fixtureDir = mkdtempSync(join(tmpdir(), 'studio-bench-fixture-'));
  const fixture = join(fixtureDir, 'speech.mp3');
  execFileSync((await resolveMediaBinary('ffmpeg')).path, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=2',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
    fixture,
  ]);
  try {
    const batch = await measure(`studio batch (4 at a time, rate limit ${RATE_LIMIT}/s)`, true, fixture, studioBatch);
    const serial = await measure(`one request at a time (limit ${RATE_LIMIT}/s)`, true, fixture, (s) => oneAtATime(s));
    const flood = await measure('all rows at once (no limit)', false, fixture, (s) => allAtOnce(s));
    console.log(
      `${ROWS} TTS rows, sandbox jobs of ${JOB_SECONDS} s with ${FAIL_RATE * 100}% failing; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores`,
    );
    console.log(
      `${'strategy'.padEnd(42)} ${'wall'.padStart(8)} ${'req/row'.padStart(8)} ${'1005s'.padStart(6)} ${'done'.padStart(6)} ${'failed'.padStart(7)} ${'lost'.padStart(5)} ${'twice'.padStart(6)}`,
    );
    for (const o of [batch, serial, flood]) {
      console.log(
        `${o.label.padEnd(42)} ${o.seconds.toFixed(1).padStart(6)} s ${(o.requests / ROWS).toFixed(2).padStart(8)} ${String(o.rateLimited).padStart(6)} ${String(o.completed).padStart(6)} ${String(o.failed).padStart(7)} ${String(o.lost).padStart(5)} ${String(o.twice).padStart(6)}`,
      );
    }
    const ratio = batch.seconds / serial.seconds;
    console.log(
      `aim faster than one at a time: ${ratio < 1 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x its wall time; all at once without a limit took ${(flood.seconds / serial.seconds).toFixed(2)}x)`,
    );
    const storm = batch.rateLimited / Math.max(1, batch.requests);
    console.log(
      `aim no 1005 storm (at most 2% of requests refused): ${storm <= 0.02 ? 'met' : 'NOT met'} (${batch.rateLimited} of ${batch.requests}, ${(storm * 100).toFixed(1)}%)`,
    );
    console.log(
      `aim 0 rows lost: ${batch.lost === 0 ? 'met' : 'NOT met'} (${batch.lost}); aim 0 rows created twice: ${batch.twice === 0 ? 'met' : 'NOT met'} (${batch.twice})`,
    );
  } finally {
    rmSync(fixtureDir, { recursive: true, force: true });
  }
}
