import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { readSandboxRecords } from '../../../electron/emulator/state/store';

const root = join(import.meta.dirname, '..', '..', '..');
let emulator: RunningEmulator;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'studio-faults-'));
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 0.6,
    failRate: 0.2,
    rateLimit: 12,
    dataDir: join(work, 'emulator'),
    catalogueDir: join(tmpdir(), 'avatar-studio-test-catalogue'),
  });
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  rmSync(work, { recursive: true, force: true });
});

const fast = {
  maxInFlight: 4,
  queued: { baseMs: 150, capMs: 600, factor: 1.5, jitter: 0.3 },
  processing: { baseMs: 100, capMs: 400, factor: 1.5, jitter: 0.3 },
  errors: { baseMs: 100, capMs: 800, factor: 2, jitter: 0.5 },
  rateLimit: { baseMs: 200, capMs: 1_000, factor: 2, jitter: 0.3 },
};

/**
 * The sandbox's own records (its state file), to compare with what the engine believes. The sandbox runs
 * in this process and writes its state at the next turn of the event loop after a change, so one turn
 * later the file holds every change made so far.
 */
async function emulatorRecords(): Promise<Map<string, number>> {
  await new Promise((r) => setImmediate(r));
  const state = readSandboxRecords(join(work, 'emulator')).state as {
    jobs: Record<string, { status: number; kind: string }>;
  };
  return new Map(
    Object.entries(state.jobs)
      .filter(([, j]) => j.kind === 'tts')
      .map(([id, j]) => [id, j.status]),
  );
}

const PHASE_OF: Record<number, string> = { 3: 'completed', 4: 'failed' };

/** Every service record belongs to exactly one ledger job in the matching final state; unmatched ones only where the ledger says "outcome unknown". */
function checkAgainstService(records: Map<string, number>, jobs: Pick<JobRecord, 'phase' | 'remoteId'>[]): void {
  const remoteIds = jobs.map((j) => j.remoteId).filter((id): id is string => id !== null);
  expect(new Set(remoteIds).size, 'a service record claimed by two ledger jobs').toBe(remoteIds.length);
  for (const job of jobs) {
    if (job.remoteId === null) {
      // Never created (refused, e.g. rate-limited past the retries) or not known whether it was.
      expect(['outcome-unknown', 'failed']).toContain(job.phase);
      continue;
    }
    const status = records.get(job.remoteId);
    expect(status, `ledger job ${job.remoteId} unknown to the service`).toBeDefined();
    expect(job.phase).toBe(PHASE_OF[status as number]);
  }
  const unclaimed = [...records.keys()].filter((id) => !remoteIds.includes(id));
  expect(unclaimed.length).toBeLessThanOrEqual(jobs.filter((j) => j.phase === 'outcome-unknown').length);
  for (const id of unclaimed) expect([3, 4]).toContain(records.get(id));
}

/** Settles once no job of the engine is still on its way to an end. */
function settled(engine: JobEngine): Promise<void> {
  return new Promise((resolve) => {
    if (engine.activeCount === 0) return resolve();
    const stop = engine.subscribe(() => {
      if (engine.activeCount > 0) return;
      stop();
      resolve();
    });
  });
}

describe('faults against the sandbox', () => {
  it('ends every job in its true final state through 503s, dropped connections, 1005 bursts and slow answers', async () => {
    // Counted faults: every run meets the same 503s, drops and 1005s, however fast the machine sends (the
    // sandbox's rate limit alone answers 1005 only to a machine fast enough to pass it).
    emulator.setFaults({ http5xxRate: 0.15, dropRate: 0.08, tooFrequentRate: 0.05, latencyMs: 25 });
    const seen = { rateLimited: 0, unavailable: 0, dropped: 0 };
    const countingFetch = async (input: string, init: RequestInit): Promise<Response> => {
      try {
        const response = await fetch(input, init);
        if (response.status === 503) seen.unavailable += 1;
        else if (
          (
            (await response
              .clone()
              .json()
              .catch(() => ({}))) as { code?: number }
          ).code === 1005
        )
          seen.rateLimited += 1;
        return response;
      } catch (error) {
        seen.dropped += 1;
        throw error;
      }
    };
    const client = new ServiceClient({
      baseUrl: emulator.url,
      credentials: { kind: 'api-key', apiKey: emulator.apiKey },
      fetch: countingFetch,
      retry: { baseMs: 30, capMs: 300, factor: 2, jitter: 0.5 },
      maxAttempts: 6,
      // A hang guard only: a request the client gives up on counts as dropped, so on a machine too busy to
      // answer in a short limit the counted 1005s could all be cut off and never be seen as such.
      timeoutMs: 60_000,
    });
    const ledger = join(work, 'ledger-a');
    const engine = new JobEngine({
      storage: openLedger(ledger),
      connections: {
        active: async () => ({ id: 'e', name: 'Emulator', webhookUrl: null }),
        client: async () => client,
      },
      clock: { now: () => Date.now() },
      scheduler: fast,
    });
    engine.start();
    const before = await emulatorRecords();
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        engine.submit({
          confirmation: { by: 'script' },
          kind: 'tts',
          body: { input_text: `Fault test sentence ${i}.`, voice_id: 'sandbox_ava', rate: '50%' },
        }),
      ),
    );
    await settled(engine);
    engine.stop();
    await engine.flush();
    emulator.setFaults({ http5xxRate: 0, dropRate: 0, tooFrequentRate: 0, latencyMs: 0 });

    const jobs = openLedger(ledger).loadAll();
    expect(jobs).toHaveLength(24);
    const all = await emulatorRecords();
    const records = new Map([...all].filter(([id]) => !before.has(id)));
    checkAgainstService(records, jobs);
    // The faults really happened and were survived.
    expect(seen.rateLimited).toBeGreaterThan(0);
    expect(seen.unavailable).toBeGreaterThan(0);
    expect(seen.dropped).toBeGreaterThan(0);
    expect(jobs.filter((j) => j.phase === 'completed').length).toBeGreaterThan(0);
    // A hang guard: this takes some 30 s on a busy two-core machine.
  }, 300_000);

  it('loses and duplicates nothing when the engine process is killed with SIGKILL and started again', async () => {
    const ledger = join(work, 'ledger-b');
    const count = 16;
    const before = await emulatorRecords();
    // The crash is the only way the first run may end, and a clean exit the only way the second may.
    const run = (
      end: 'SIGKILL' | 'exit 0',
      onLine: (line: string, kill: () => void) => void,
      freezeAfter: string[] = [],
    ) =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            join(root, 'test/unit/jobs/engine-child.ts'),
            emulator.url,
            emulator.apiKey,
            ledger,
            String(count),
            ...freezeAfter,
          ],
          { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        const lines: string[] = [];
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.stdout.on('data', (d: Buffer) => {
          for (const line of d.toString().split('\n').filter(Boolean)) {
            lines.push(line);
            onLine(line, () => child.kill('SIGKILL'));
          }
        });
        child.on('error', reject);
        child.on('exit', (code, signal) =>
          (end === 'SIGKILL' ? signal === 'SIGKILL' : code === 0)
            ? resolve(lines)
            : reject(new Error(`child exited with ${signal ?? code} (expected ${end}): ${stderr}`)),
        );
      });

    // The child stops dead after announcing job-5 and is killed there: however late this process reads
    // the line, the child has not moved its jobs on (they were all still in flight, the last just sent).
    const first = await run(
      'SIGKILL',
      (line, kill) => {
        if (line.startsWith('sent job-5 ')) kill();
      },
      ['job-5'],
    );
    expect(first.some((l) => l.startsWith('done'))).toBe(false);
    const afterCrash = openLedger(ledger).loadAll();
    expect(afterCrash.length).toBeGreaterThanOrEqual(6);
    expect(afterCrash.some((j) => ['submitting', 'queued', 'processing'].includes(j.phase))).toBe(true);

    const second = await run('exit 0', () => undefined);
    const done = second.find((l) => l.startsWith('done '));
    expect(done).toBeDefined();
    const jobs = openLedger(ledger).loadAll();
    // One ledger job per intended job: the restart sent only the ones never written down.
    expect(jobs.map((j) => j.projectId).sort()).toEqual(Array.from({ length: count }, (_, i) => `job-${i}`).sort());
    expect(second.filter((l) => l.startsWith('sent ')).length).toBe(count - afterCrash.length);
    const all = await emulatorRecords();
    checkAgainstService(new Map([...all].filter(([id]) => !before.has(id))), jobs);
  }, 120_000);
});
