// Issue 64: Ctrl-C and SIGTERM stop a `studio worker` within 5 s in every state: waiting for rows, with
// rows under way (the sandbox's jobs last minutes here), and with its Redis gone. Each worker is a real
// process; the guards on its exit are hang guards well past the 5 s it promises, and well short of what
// it took before (a stop waited for the rows under way, then for ever on a Redis that had gone).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { smallTemplate } from '../campaign/campaign-harness';
import { until } from '../../wait';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, redisPassage, whenSaid, type CliProcess } from './queue-processes';

const place = queuePlace('studio-worker-stop-');
const dir = place.dir;
const PASSWORD = 'stop-secret-3';
/** A hang guard: the worker promises 5 s; a stop that waits for the rows or for Redis takes minutes. */
const STOP_GUARD_MS = 30_000;

const started: CliProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

const sheet = (people: readonly string[]) =>
  [
    'First name,company,voice,avatar,logo,email',
    ...people.map((p) => `${p},Acme,Ava,SandboxBen,logo.png,${p.toLowerCase()}@example.com`),
  ].join('\n');

describe('a worker told to stop', () => {
  it('exits within seconds waiting for rows, with rows under way, and with its Redis gone', async () => {
    // Jobs of ten minutes: a row taken stays under way for the whole test.
    const { redis, sandbox } = await place.start({ password: PASSWORD }, { credits: 1_000_000, jobSeconds: 600 });
    const passage = await redisPassage(redis.port);
    const env = { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: `redis://:${PASSWORD}@127.0.0.1:${passage.port}` };
    const worker = (name: string) => {
      const p = cliProcess(
        ['worker', '--name', name, '--base-url', sandbox.url, '--data-dir', join(dir, `${name}-data`)],
        env,
      );
      started.push(p);
      return p;
    };

    // Waiting for rows, Redis there: SIGTERM.
    const idle = worker('idle');
    await whenSaid(idle, 'takes rows from');
    idle.child.kill('SIGTERM');
    expect(await exitWithin(idle, STOP_GUARD_MS, 'the idle worker to stop on SIGTERM'), idle.said()).toBe(0);

    // Rows under way: Ctrl-C. The run is queued by a real `campaign run`, which waits for its rows.
    const busy = worker('busy');
    await whenSaid(busy, 'takes rows from');
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(join(dir, 'rows.csv'), sheet(['Ana', 'Ben']));
    const run = cliProcess(
      [
        ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
        ...['--queue', `redis://127.0.0.1:${passage.port}`, '--base-url', sandbox.url, '--yes'],
      ],
      { ...env, STUDIO_DATA_DIR: join(dir, 'run-data') },
    );
    started.push(run);
    const records = new Redis(redis.url, { maxRetriesPerRequest: null });
    try {
      const shelf = new RunShelf(records);
      await until(
        'the worker to make a row',
        async () => ((await shelf.workerFacts()).get('busy')?.running ?? 0) > 0,
        120_000,
      );
    } finally {
      records.disconnect();
    }
    busy.child.kill('SIGINT');
    expect(await exitWithin(busy, STOP_GUARD_MS, 'the busy worker to stop on Ctrl-C'), busy.said()).toBe(0);

    // Redis gone (every connection reset, none taken): SIGTERM.
    const stranded = worker('stranded');
    await whenSaid(stranded, 'takes rows from');
    await passage.cut();
    await until('the worker to try Redis again after it went', () => passage.refused() >= 2);
    stranded.child.kill('SIGTERM');
    const code = await exitWithin(stranded, STOP_GUARD_MS, 'the worker without Redis to stop on SIGTERM');
    expect(typeof code, stranded.said()).toBe('number');
    expect(stranded.said()).not.toContain(PASSWORD);

    run.child.kill('SIGKILL');
    await passage.close();
  }, 600_000);
});
