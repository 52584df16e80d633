// Workers for the tests of runs made on a queue: `studio worker` processes against one sandbox.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../bench/jobs.bench';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { redisTarget } from '../../../electron/services/rows/queue/redis-target';
import { startRedis, type RedisServerOptions, type RunningRedis } from '../../redis-server';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** What a test adds to a worker's command line and environment (a bucket and its storage's keys). */
export interface WorkerExtra {
  args?: readonly string[];
  env?: Record<string, string>;
}

/** A `studio worker` in its own process and data folder; settles once it says it takes rows. */
export async function startWorker(
  dir: string,
  name: string,
  queue: string,
  service: Sandbox,
  children: ChildProcess[],
  extra: WorkerExtra = {},
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'electron/cli/index.ts'),
      'worker',
      '--queue',
      // The address alone: a password on a command line is refused (every user can read it in `ps`).
      redisTarget(queue).shown,
      '--name',
      name,
      '--base-url',
      service.url,
      '--data-dir',
      join(dir, `${name}-data`),
      '--out',
      join(dir, `${name}-out`),
      ...(extra.args ?? []),
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, STUDIO_API_KEY: service.apiKey, STUDIO_QUEUE_URL: queue, ...extra.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.push(child);
  let said = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('takes rows from')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker ${name} exited (${code}): ${said}`)));
  });
  return child;
}

/**
 * A test file's place for runs on a queue: a folder, a Redis and a sandbox in its own process, started
 * by `start`, and the workers started in it; everything is stopped and removed after the file's tests.
 */
export function queuePlace(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  let redis: RunningRedis | null = null;
  let sandbox: Sandbox | null = null;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (sandbox) await stopSandbox(sandbox);
    await redis?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    async start(redisOptions: RedisServerOptions, sandboxOptions: Record<string, unknown>) {
      redis = await startRedis(redisOptions);
      sandbox = await startSandbox(join(dir, 'sandbox'), sandboxOptions);
      return { redis, sandbox };
    },
    worker: (name: string, queue: string, service: Sandbox, extra?: WorkerExtra) =>
      startWorker(dir, name, queue, service, children, extra),
  };
}
