// A job engine in its own process, for the crash test: submits jobs job-0..job-(N-1) that the ledger
// does not hold yet (one at a time, announcing each), follows every job to its end, prints a summary.
// Usage: node --import tsx engine-child.ts <baseUrl> <apiKey> <ledgerDir> <count> [<freeze after marker>]
// With a marker, it stops dead once that job is announced (its event loop blocked), to be killed there:
// the ledger then holds what it held at the announcement, however long the kill takes to arrive.
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';

const [baseUrl, apiKey, ledgerDir, countText, freezeAfter] = process.argv.slice(2);
const count = Number(countText);
const client = new ServiceClient({
  baseUrl,
  credentials: { kind: 'api-key', apiKey },
  retry: { baseMs: 30, capMs: 300, factor: 2, jitter: 0.5 },
  maxAttempts: 6,
  timeoutMs: 3_000,
});
const engine = new JobEngine({
  storage: openLedger(ledgerDir),
  connections: {
    active: async () => ({ id: 'emulator', name: 'Emulator', webhookUrl: null }),
    client: async () => client,
  },
  clock: { now: () => Date.now() },
  scheduler: {
    maxInFlight: 4,
    queued: { baseMs: 150, capMs: 600, factor: 1.5, jitter: 0.3 },
    processing: { baseMs: 100, capMs: 400, factor: 1.5, jitter: 0.3 },
    errors: { baseMs: 100, capMs: 800, factor: 2, jitter: 0.5 },
    rateLimit: { baseMs: 200, capMs: 1_000, factor: 2, jitter: 0.3 },
  },
});
engine.start();
const have = new Set(engine.list().map((j) => j.projectId));
for (let i = 0; i < count; i += 1) {
  const marker = `job-${i}`;
  if (have.has(marker)) continue;
  const result = await engine.submit({
    confirmation: { by: 'script' },
    kind: 'tts',
    projectId: marker,
    body: { input_text: `Crash test sentence number ${i}.`, voice_id: 'sandbox_ava', rate: '50%' },
  });
  const line = `sent ${marker} ${result.status === 'submitted' ? result.job.phase : result.status}\n`;
  await new Promise((resolve) => process.stdout.write(line, resolve));
  if (marker === freezeAfter) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
const finalPhases = new Set(['completed', 'failed', 'outcome-unknown', 'stalled']);
const unfinished = () => engine.list().some((j) => !finalPhases.has(j.phase));
if (unfinished()) {
  // The engine's poll timers do not hold a process open (an app quits while jobs wait); this one does.
  const holdOpen = setInterval(() => undefined, 60_000);
  await new Promise<void>((resolve) => {
    const stop = engine.subscribe(() => {
      if (unfinished()) return;
      stop();
      resolve();
    });
  });
  clearInterval(holdOpen);
}
engine.stop();
await engine.flush();
process.stdout.write(
  `done ${JSON.stringify(engine.list().map((j) => ({ projectId: j.projectId, phase: j.phase, remoteId: j.remoteId })))}\n`,
);
