// A voiceover batch made on a queue: `tts-batch --queue` with one `studio worker` against the sandbox
// in its own process. Every row's file is saved by the studio that queued it, its jobs are in that
// studio's ledger (nothing left to download), and the sandbox made each line once.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { startRedis, type RunningRedis } from '../../redis-server';
import { startSandbox, type Sandbox } from '../../bench/jobs.bench';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { startWorker } from './queue-fixture';

const ROWS = 20;
const dir = mkdtempSync(join(tmpdir(), 'studio-batch-queue-'));
const children: ChildProcess[] = [];
let redis: RunningRedis | null = null;
let sandbox: Sandbox | null = null;
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (sandbox) await stopSandbox(sandbox);
  await redis?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a voiceover batch made on a queue', () => {
  it("saves every row's file where it was queued, each line made once", async () => {
    redis = await startRedis();
    sandbox = await startSandbox(join(dir, 'sandbox'), { credits: 1_000_000, jobSeconds: 0.5 });
    await startWorker(dir, 'w1', redis.url, sandbox, children);
    const lines = Array.from({ length: ROWS }, (_, i) => `Hello number ${i + 1},Ava`);
    writeFileSync(join(dir, 'lines.csv'), ['text,voice', ...lines].join('\n'));
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { STUDIO_API_KEY: sandbox.apiKey },
      cwd: dir,
    };
    const common = ['--base-url', sandbox.url, '--data-dir', join(dir, 'data'), '--json'];
    const code = await runCli(
      ['tts-batch', 'lines.csv', '--out-dir', 'voices', '--queue', redis.url, '--yes', ...common],
      io,
    );
    expect(code, err.join('\n')).toBe(EXIT.ok);
    expect(readdirSync(join(dir, 'voices')).filter((f) => f.endsWith('.mp3'))).toHaveLength(ROWS);

    const missing = await runCli(['download', '--missing', ...common], io);
    expect(missing, err.join('\n')).toBe(EXIT.ok);
    expect(JSON.parse(out[out.length - 1])).toEqual([]);

    await stopSandbox(sandbox);
    const state = JSON.parse(readFileSync(join(sandbox.dataDir, 'state.json'), 'utf8')) as {
      jobs: Record<string, { kind: string; request: Record<string, unknown> }>;
    };
    const said = Object.values(state.jobs)
      .filter((j) => j.kind === 'tts')
      .map((j) => String(j.request.input_text));
    expect(said.sort()).toEqual(lines.map((l) => l.split(',')[0]).sort());
  }, 600_000);
});
