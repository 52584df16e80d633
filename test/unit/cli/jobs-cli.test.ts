import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';
import type { JobView } from '../../../electron/common/bridge/jobs';

let emulator: RunningEmulator;
let dataDir: string;
let jobId: string;

/**
 * The name and bytes of every file holding the ledger: the records database and its write-ahead log.
 * Not its `-shm`, SQLite's shared index of the log, which every reader marks where it reads.
 */
function ledgerBytes(dir: string): Record<string, string> {
  const files = readdirSync(dir).filter((name) => name.startsWith('records.db') && !name.endsWith('-shm'));
  expect(files).toContain('records.db');
  return Object.fromEntries(files.sort().map((name) => [name, readFileSync(join(dir, name)).toString('base64')]));
}

function io(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: process.cwd() };
  return { io: value, out, err };
}

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 1,
    catalogueDir: join(tmpdir(), 'avatar-studio-test-catalogue'),
  });
  dataDir = mkdtempSync(join(tmpdir(), 'studio-cli-'));
  // A job created by another host (the app) and left running: the CLI picks it up from the ledger.
  const client = new ServiceClient({
    baseUrl: emulator.url,
    credentials: { kind: 'api-key', apiKey: emulator.apiKey },
  });
  const engine = new JobEngine({
    storage: openLedger(dataDir),
    connections: {
      active: async () => ({ id: 'remote', name: 'Remote', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
  });
  const result = await engine.submit({
    confirmation: { by: 'script' },
    kind: 'tts',
    body: { input_text: 'Waiting from the command line.', voice_id: 'sandbox_ava', rate: '50%' },
  });
  engine.stop();
  await engine.flush();
  if (result.status !== 'submitted') throw new Error('seed job not submitted');
  jobId = result.job.id;
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('studio jobs', () => {
  it('lists and shows a job, then waits for it through --base-url with the environment key, writing nothing', async () => {
    const before = ledgerBytes(dataDir);
    const list = io();
    expect(await runCli(['jobs', 'list', '--json', '--data-dir', dataDir], list.io)).toBe(0);
    // JSON Lines: one job per line.
    expect(list.out.map((line) => (JSON.parse(line) as JobView).id)).toEqual([jobId]);

    const table = io();
    await runCli(['jobs', 'list', '--data-dir', dataDir], table.io);
    expect(table.out[0]).toMatch(/^ID\s+KIND\s+STATUS/m);
    expect(table.out[0]).toMatch(new RegExp(`${jobId.slice(0, 8)}\\s+Speech\\s+`));

    const show = io();
    expect(await runCli(['jobs', 'show', jobId, '--data-dir', dataDir], show.io)).toBe(0);
    expect(show.out[0]).toContain('Waiting from the command line.');
    expect(show.out[0]).toMatch(/Available:\s+6 d 23 h left|Available:\s+7 d left/);

    const wait = io({ STUDIO_API_KEY: emulator.apiKey });
    const code = await runCli(
      [
        'jobs',
        'wait',
        jobId.slice(0, 8),
        '--base-url',
        emulator.url,
        '--data-dir',
        dataDir,
        '--json',
        '--timeout',
        '60',
      ],
      wait.io,
    );
    expect(wait.err.join('\n')).toBe('');
    expect(code).toBe(0);
    const job = JSON.parse(wait.out.join('')) as JobView;
    expect(job).toMatchObject({ id: jobId, phase: 'completed' });
    expect(job.resultUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/.+\.mp3$/);
    // The app that owns the record learns the outcome itself; the command line only reads.
    expect(ledgerBytes(dataDir)).toEqual(before);
  });

  it('leaves a create that another process is sending exactly as it is (never marks it lost)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'studio-cli-readonly-'));
    try {
      const storage = openLedger(home);
      await storage.put({
        id: 'in-flight',
        kind: 'tts',
        phase: 'submitting',
        remoteId: null,
        connectionId: 'sandbox',
        connectionName: 'Sandbox',
        projectId: null,
        summary: 'Speech',
        requestHash: 'h',
        request: { input_text: 'x', voice_id: 'v' },
        createdAt: Date.now(),
        updatedAt: Date.now(),
        finishedAt: null,
        expiresAt: null,
        deadlineAt: Date.now() + 1e6,
        remoteStatus: null,
        resultUrl: null,
        costEstimate: null,
        chargedCredits: null,
        error: null,
        answer: null,
        polls: 0,
        purpose: { type: 'plain' },
        reactedAt: null,
      });
      await storage.flush();
      const before = ledgerBytes(home);
      for (const argv of [
        ['jobs', 'list'],
        ['jobs', 'list', '--json'],
        ['jobs', 'show', 'in-flight'],
      ]) {
        const run = io({});
        expect(await runCli([...argv, '--data-dir', home], run.io), argv.join(' ')).toBe(0);
        expect(run.out.join('')).toMatch(/Sending|submitting/);
      }
      expect(ledgerBytes(home)).toEqual(before);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('follows a sandbox job by starting the sandbox itself (the default connection)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'studio-cli-sandbox-'));
    try {
      // The app created a sandbox job and quit; the sandbox keeps its records under <data>/sandbox.
      const sandbox = await startEmulator({ port: 0, jobSeconds: 1, dataDir: join(home, 'sandbox') });
      const client = new ServiceClient({
        baseUrl: sandbox.url,
        credentials: { kind: 'api-key', apiKey: sandbox.apiKey },
      });
      const engine = new JobEngine({
        storage: openLedger(home),
        connections: {
          active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
          client: async () => client,
        },
        clock: { now: () => Date.now() },
      });
      const result = await engine.submit({
        confirmation: { by: 'script' },
        kind: 'tts',
        body: { input_text: 'Sandbox from the command line.', voice_id: 'sandbox_ava', rate: '50%' },
      });
      engine.stop();
      await engine.flush();
      await sandbox.close();
      if (result.status !== 'submitted') throw new Error('not submitted');

      const wait = io({});
      const code = await runCli(
        ['jobs', 'wait', result.job.id, '--data-dir', home, '--json', '--timeout', '60'],
        wait.io,
      );
      expect(wait.err.join('\n')).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(wait.out.join(''))).toMatchObject({
        id: result.job.id,
        phase: 'completed',
        connectionName: 'Sandbox',
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  it('explains command-line mistakes with exit code 2', async () => {
    const unknown = io();
    expect(await runCli(['jobs', 'frobnicate'], unknown.io)).toBe(2);
    expect(unknown.err[0]).toMatch(/unknown command 'frobnicate'/);
    const noKey = io({});
    expect(await runCli(['jobs', 'wait', jobId, '--base-url', emulator.url, '--data-dir', dataDir], noKey.io)).toBe(2);
    expect(noKey.err[0]).toMatch(/STUDIO_API_KEY/);
    const missing = io();
    expect(await runCli(['jobs', 'show', 'zzzz', '--data-dir', dataDir], missing.io)).toBe(2);
    expect(missing.err[0]).toMatch(/No job matches "zzzz"/);
    const badFlag = io();
    expect(await runCli(['jobs', 'wait', jobId, '--timeout'], badFlag.io)).toBe(2);
    expect(badFlag.err[0]).toMatch(/option '--timeout <SECONDS>' argument missing/);
  });
});
