import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../electron/services/host/types';
import { BullmqRowQueue, type BullmqRowQueueOptions } from '../../../electron/services/rows/queue/bullmq-row-queue';
import type { RowTask } from '../../../electron/services/rows/engine/row-queue';
import { redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';

const PASSWORD = 'queue-secret-7q4xz9';
const redis = redisPerFile({ password: PASSWORD });
const root = join(import.meta.dirname, '..', '..', '..');

/** Every line the queues of this file log, fields included, as one text each. */
const lines: string[] = [];
const log: Logger = {
  debug: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  info: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  warn: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
  error: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`),
};

const open: BullmqRowQueue[] = [];
const children: ChildProcess[] = [];
let made = 0;
function queueOf(options: Partial<BullmqRowQueueOptions> = {}): BullmqRowQueue {
  made += 1;
  const queue = new BullmqRowQueue({ url: redis().url, name: `q-${process.pid}-${made}`, log, ...options });
  open.push(queue);
  return queue;
}
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid ?? 0), 'SIGKILL');
  await Promise.all(open.splice(0).map((queue) => queue.close(true)));
  // Whatever a test did (Redis gone and back included), its password reached no log line.
  expect(lines.filter((line) => line.includes(PASSWORD))).toEqual([]);
});

/** A step the test ends by hand; `started(n)` settles once n steps have started. */
function handWorker() {
  const running = new Map<string, () => void>();
  const ran: string[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const worker = (task: RowTask) =>
    new Promise<void>((end) => {
      const key = `${task.runId}/${task.row}`;
      ran.push(key);
      running.set(key, end);
      for (const w of waiting.filter((x) => ran.length >= x.n)) w.resolve();
    });
  const started = (n: number) =>
    ran.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }));
  const end = (key: string) => {
    running.get(key)?.();
    running.delete(key);
  };
  return { worker, running, ran, started, end };
}

const task = (row: number, runId = 'r'): RowTask => ({ kind: 'campaign', runId, row });

describe('the BullMQ row queue on a real Redis', () => {
  it('is reached with a password that no log line shows', async () => {
    const queue = queueOf();
    const { worker, started, end } = handWorker();
    queue.start(worker);
    queue.push(task(0));
    await started(1);
    end('r/0');
    await queue.idle();
    expect(lines.some((line) => line.includes(`127.0.0.1:${redis().port}`))).toBe(true);
  });

  it('loses no row and runs none twice when Redis is restarted mid-run', async () => {
    // Three steps at a time: three rows run and three wait in Redis when it goes down.
    const queue = queueOf({ concurrency: 3 });
    const { worker, ran, running, started, end } = handWorker();
    queue.start(worker);
    for (let row = 0; row < 6; row += 1) queue.push(task(row));
    await started(3);
    // Redis stops (writing its append-only file) and comes back, with three steps under way and three waiting.
    await redis().restart();
    for (const row of [6, 7]) queue.push(task(row));
    for (const key of [...running.keys()]) end(key);
    await started(6);
    for (const key of [...running.keys()]) end(key);
    await started(8);
    for (const key of [...running.keys()]) end(key);
    await queue.idle();
    expect([...ran].sort()).toEqual(['r/0', 'r/1', 'r/2', 'r/3', 'r/4', 'r/5', 'r/6', 'r/7']);
  });

  it('removes finished jobs, so Redis holds no more after 300 rows than after 30', async () => {
    const queue = queueOf();
    queue.start(async () => undefined);
    const client = new Redis(redis().url);
    const keysOf = async () => (await client.keys(`studio:${queue.queue.name}:*`)).length;
    for (let row = 0; row < 30; row += 1) queue.push(task(row, 'small'));
    await queue.idle();
    const afterSmall = await keysOf();
    for (let row = 0; row < 300; row += 1) queue.push(task(row, 'large'));
    await queue.idle();
    expect(await keysOf()).toBeLessThanOrEqual(afterSmall);
    await client.quit();
  });

  it('never runs a step again whose worker was killed mid-way (it may have sent a paid create): it fails for review', async () => {
    const stallMs = 500;
    const queue = queueOf({ stallMs });
    queue.push(task(0, 'killed'));
    await queue.settled();
    const child = spawn(
      join(root, 'node_modules', '.bin', 'tsx'),
      [join(import.meta.dirname, 'row-worker-child.ts'), redis().url, queue.queue.name, String(stallMs)],
      { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    await new Promise<void>((resolve) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('started killed/0')) resolve();
      });
    });
    process.kill(-(child.pid ?? 0), 'SIGKILL');
    const ran: RowTask[] = [];
    queue.start(async (t) => void ran.push(t));
    await until('the killed step to be found cut off', () => lines.some((l) => l.includes('a row step was cut off')));
    await queue.idle();
    expect(ran).toEqual([]);
    expect((await queue.queue.getJobCounts('failed')).failed).toBe(1);
  });
});
