// Callbacks instead of polling, with a fifth of them faulty (issue 69): real processes (the sandbox,
// Redis, a `studio worker` with its callback receiver) make a voiceover batch queued by `tts-batch
// --queue` while the sandbox loses, duplicates, delays, reorders and forges callbacks. Every row is
// made exactly once, no forged callback changes a job, and a lost one costs at most a poll: the worker
// is given a long grace (--callback-grace), so the count does not depend on how busy the machine is.
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { readSandboxRecords } from '../../../electron/emulator/state/store';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { queuePlace } from './queue-fixture';

const ROWS = 40;
const CLIENT_ID = 'sandbox-client-id-callbacks';
const CLIENT_SECRET = 'callback-test-secret-of-32-bytes';
const place = queuePlace('studio-callback-faults-');
const dir = place.dir;

/** A port free now (the receiver's; its URL must name it before the worker starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a worker that follows callbacks, a fifth of them faulty', () => {
  it('makes every row once, and no forged callback changes a job', async () => {
    const { redis, sandbox } = await place.start(
      {},
      { credits: 1_000_000, jobSeconds: 0.5, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    );
    // Counted faults: of every 25 callbacks, one lost, one sent twice, one 2 s late, one out of order and
    // one preceded by a forgery (a body changed on the way under the genuine signature).
    const set = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': sandbox.apiKey },
      body: JSON.stringify({
        callbackLostRate: 0.04,
        callbackDuplicateRate: 0.04,
        callbackDelayRate: 0.04,
        callbackReorderRate: 0.04,
        callbackForgedRate: 0.04,
      }),
    });
    expect(set.status).toBe(200);
    const port = await freePort();
    const worker = await place.worker('w1', redis.url, sandbox, {
      // A minute's grace: a callback slowed by a busy machine is still heard before its job is polled, so
      // what is counted below is what the faults cost, not how busy the machine was.
      args: [
        ...['--callback-url', `http://127.0.0.1:${port}/hooks`, '--callback-listen', `127.0.0.1:${port}`],
        ...['--callback-grace', '60'],
      ],
      env: { STUDIO_CLIENT_ID: CLIENT_ID, STUDIO_CLIENT_SECRET: CLIENT_SECRET },
    });
    let said = '';
    worker.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));

    const lines = Array.from({ length: ROWS }, (_, i) => `Callback line ${i + 1},Ava`);
    writeFileSync(join(dir, 'lines.csv'), ['text,voice', ...lines].join('\n'));
    const err: string[] = [];
    const io: CliIo = {
      out: () => undefined,
      err: (t) => err.push(t),
      env: { STUDIO_API_KEY: sandbox.apiKey },
      cwd: dir,
    };
    const code = await runCli(
      [
        'tts-batch',
        'lines.csv',
        '--out-dir',
        'voices',
        '--queue',
        redis.url,
        '--yes',
        '--base-url',
        sandbox.url,
        '--data-dir',
        join(dir, 'data'),
        '--json',
      ],
      io,
    );
    expect(code, `${err.join('\n')}\n${said}`).toBe(EXIT.ok);
    expect(readdirSync(join(dir, 'voices')).filter((f) => f.endsWith('.mp3'))).toHaveLength(ROWS);

    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
    await stopSandbox(sandbox);
    const state = readSandboxRecords(sandbox.dataDir).state as {
      jobs: Record<string, { kind: string; status: number; request: Record<string, unknown>; webhook?: string }>;
    };
    const tts = Object.entries(state.jobs).filter(([, j]) => j.kind === 'tts');
    // Each line made once, each through a callback address of its own.
    expect(tts.map(([, j]) => String(j.request.input_text)).sort()).toEqual(lines.map((l) => l.split(',')[0]).sort());
    const hooks = tts.map(([, j]) => String(j.request.webhookUrl));
    expect(new Set(hooks).size).toBe(ROWS);
    for (const hook of hooks)
      expect(hook).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/hooks/[A-Za-z0-9_-]{43}$`));

    // The worker's jobs ended as the sandbox made them: completed, with the sandbox's own result.
    const jobs = openLedger(join(dir, 'w1-data')).loadAll();
    expect(jobs).toHaveLength(ROWS);
    for (const job of jobs) {
      expect(job.phase).toBe('completed');
      expect(job.resultUrl?.startsWith(sandbox.url), String(job.resultUrl)).toBe(true);
      // The ledger keeps no callback address, so no token.
      expect(JSON.stringify(job)).not.toContain('/hooks/');
    }
    // The forgeries were refused (and the duplicates as replays); the worker polled only jobs whose end it did not hear.
    expect(said).toMatch(/callback refused .*"status":401/);
    const polls = jobs.reduce((n, j) => n + j.polls, 0);
    expect(polls).toBeLessThanOrEqual(8);
    expect(said).not.toContain(CLIENT_SECRET);
  }, 600_000);
});
