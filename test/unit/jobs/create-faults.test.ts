// The two moments a paid create can be lost or doubled. Each test fails when its protection goes:
// - the connection dies after the service made the job: the client must not send the create again
//   (mutation: treat creates as reads in requestModeOf → the sandbox ends with two jobs);
// - the process dies after the ledger write and before the create: the restarted engine must mark the
//   job outcome-unknown and never send it (mutation: re-send "submitting" records at start → one job).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { CATALOGUE_ROOT } from '../emulator/harness';

const root = join(import.meta.dirname, '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'studio-create-faults-'));
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 0.3,
    catalogueDir: CATALOGUE_ROOT,
    dataDir: join(work, 'sandbox'),
  });
}, 120_000);
afterAll(async () => {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
});

/** How many jobs the sandbox has made, from its records in memory (its control route), not its file. */
async function sandboxJobs(): Promise<number> {
  const response = await fetch(`${emulator.url}/__sandbox/status`, { headers: { 'x-api-key': emulator.apiKey } });
  const status = (await response.json()) as { data: { jobs: { total: number } } };
  return status.data.jobs.total;
}

function engineOn(ledger: string) {
  const client = new ServiceClient({
    baseUrl: emulator.url,
    credentials: { kind: 'api-key', apiKey: emulator.apiKey },
  });
  return new JobEngine({
    storage: openLedger(ledger),
    connections: {
      active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
  });
}

describe('paid creates under faults', () => {
  it('a create whose answer is lost after the service made the job is outcome unknown and never sent again', async () => {
    const before = await sandboxJobs();
    emulator.setFaults({ dropAfterCreateRate: 1 });
    const engine = engineOn(join(work, 'ledger-drop'));
    engine.start();
    try {
      const result = await engine.submit({
        confirmation: { by: 'script' },
        kind: 'tts',
        body: { input_text: 'Made, but the answer never arrives.', voice_id: 'sandbox_ava', rate: '50%' },
      });
      if (result.status !== 'submitted') throw new Error('not submitted');
      expect(result.job.phase).toBe('outcome-unknown');
      expect(result.job.error?.explanation).toMatch(/dashboard|credit history/);
    } finally {
      emulator.setFaults({ dropAfterCreateRate: 0 });
      engine.stop();
      await engine.flush();
    }
    expect((await sandboxJobs()) - before).toBe(1);
  });

  it('a process killed between the ledger write and the create leaves the job outcome unknown, never sent', async () => {
    const before = await sandboxJobs();
    const ledger = join(work, 'ledger-kill');
    const signal = await new Promise<string | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'test/unit/jobs/kill-after-ledger-child.ts'),
          emulator.url,
          emulator.apiKey,
          ledger,
        ],
        { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('exit', (code, sig) =>
        sig ? resolve(sig) : reject(new Error(`the child exited ${code} instead of being killed: ${stderr}`)),
      );
    });
    expect(signal).toBe('SIGKILL');
    const engine = engineOn(ledger);
    engine.start();
    const [job] = engine.list();
    expect(job).toMatchObject({ phase: 'outcome-unknown', remoteId: null });
    engine.stop();
    await engine.flush();
    expect(await sandboxJobs()).toBe(before);
  }, 120_000);
});
