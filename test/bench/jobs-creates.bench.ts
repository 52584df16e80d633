// Paid creates through the job engine on one connection: sent one at a time per connection with the
// balance read before and after each (what the studio does, so each job's charge is measured alone)
// against the same creates sent in parallel without it (the baseline), both in the same run against
// the sandbox in its own process. Reports wall and CPU time and requests per create, as ratios.
// Runs with `npm run bench jobs` (its own block in docs/performance.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../electron/services/client';
import { JobEngine } from '../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../electron/services/jobs/ledger';
import { body, counting, cpuMs, pool, startSandbox, type Sandbox } from './jobs.bench';

const CREATES = Number(process.env.BENCH_CREATES ?? 200);

interface CreatesResult {
  label: string;
  wallMs: number;
  cpuMs: number;
  requestsPerCreate: number;
  measured: number;
}

/**
 * `creates` paid creates through the engine, 8 at a time from the caller, on one connection. `oneAtATime`:
 * with a balance source, so the engine sends them one at a time per connection and reads the balance
 * before and after each (what the studio does, to record each job's charge); else in parallel (the baseline).
 */
async function runCreates(sandbox: Sandbox, oneAtATime: boolean, creates = CREATES): Promise<CreatesResult> {
  const counter = counting();
  const client = new ServiceClient({
    baseUrl: sandbox.url,
    credentials: { kind: 'api-key', apiKey: sandbox.apiKey },
    fetch: counter.fetch,
  });
  const engine = new JobEngine({
    storage: new MemoryLedgerStorage(),
    connections: {
      active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
    ...(oneAtATime && { balance: async () => (await client.call('quotaInfo', {})).credit }),
  });
  engine.start({ poll: false });
  const cpu = process.cpuUsage();
  const started = performance.now();
  await pool(creates, 8, async (i) => {
    await engine.submit({ confirmation: { by: 'script' }, kind: 'tts', body: body(i) });
  });
  const wallMs = performance.now() - started;
  const used = cpuMs(process.cpuUsage(cpu));
  engine.stop();
  const measured = engine.records().filter((r) => r.chargeSource === 'balance').length;
  return {
    label: oneAtATime ? 'one at a time' : 'parallel',
    wallMs,
    cpuMs: used,
    requestsPerCreate: (counter.polls() + counter.creates()) / creates,
    measured,
  };
}

export async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'studio-creates-bench-'));
  const sandbox = await startSandbox(join(work, 'sandbox-creates'), { jobSeconds: 60, failRate: 0 });
  const results: CreatesResult[] = [];
  try {
    // Untimed warm-up of both paths, then the baseline first and the measured path second.
    await runCreates(sandbox, false, 20);
    await runCreates(sandbox, true, 20);
    results.push(await runCreates(sandbox, false));
    results.push(await runCreates(sandbox, true));
  } finally {
    sandbox.child.kill('SIGTERM');
    await new Promise((r) => sandbox.child.once('exit', r));
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`${CREATES} TTS creates on one connection, 8 at a time from the caller; the sandbox in its own process`);
  console.log(
    `${'creates'.padEnd(14)} ${'wall'.padStart(9)} ${'per create'.padStart(11)} ${'CPU'.padStart(9)} ${'requests/create'.padStart(16)} ${'charges measured'.padStart(17)}`,
  );
  for (const r of results) {
    console.log(
      `${r.label.padEnd(14)} ${(r.wallMs / 1000).toFixed(2).padStart(7)} s ${(r.wallMs / CREATES).toFixed(1).padStart(8)} ms ${r.cpuMs.toFixed(0).padStart(6)} ms ${r.requestsPerCreate.toFixed(2).padStart(16)} ${`${r.measured}/${CREATES}`.padStart(17)}`,
    );
  }
  const [parallel, serial] = results;
  console.log(
    `ratios one at a time / parallel: wall ${(serial.wallMs / parallel.wallMs).toFixed(2)}, CPU ${(serial.cpuMs / parallel.cpuMs).toFixed(2)}, requests ${(serial.requestsPerCreate / parallel.requestsPerCreate).toFixed(2)}`,
  );
  console.log(
    '(one at a time is the price of knowing what each job cost: the balance read before and after a create measures that create alone; a batch of 60 waits that much longer to be sent)',
  );
}
