// Issue 64: a run's storage is the run's. `campaign run --queue --media-storage environment` records the
// bucket its links go to (kind, endpoint, bucket; never a key) with the run in Redis; a worker of the run's
// own account whose pictures would go to another bucket, or to its service's sandbox, makes none of its rows
// and says why, in its log and in `campaign status`, and the run waits for a worker of its storage, which
// makes every row with its pictures in the run's bucket. Real processes: Redis, the sandbox, the workers,
// the campaign run; s3rver (two buckets) in this process.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { campaignIdFor } from '../../../electron/services/campaign/campaign-setup';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { readSandboxRecords } from '../../../electron/emulator/state/store';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { until } from '../../wait';
import { smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, whenSaid, type CliProcess } from './queue-processes';
import { redisTarget } from '../../../electron/services/rows/queue/redis-target';

const ROWS = 2;
const place = queuePlace('studio-run-storage-');
const dir = place.dir;
const started: CliProcess[] = [];
let s3: S3rver | null = null;
afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await s3?.close();
});

const bucketEnv = (endpoint: string, bucket: string) => ({
  STUDIO_S3_ENDPOINT: endpoint,
  STUDIO_S3_BUCKET: bucket,
  STUDIO_S3_PATH_STYLE: '1',
  STUDIO_S3_ACCESS_KEY_ID: 'S3RVER',
  STUDIO_S3_SECRET_ACCESS_KEY: 'S3RVER',
});

const made = (name: string) => {
  const out = join(dir, `${name}-out`);
  return existsSync(out)
    ? readdirSync(out).flatMap((run) => readdirSync(join(out, run)).filter((f) => f.endsWith('.mp4')))
    : [];
};

describe("a run's own storage", () => {
  it('is recorded with the run, and a worker whose pictures go elsewhere makes none of its rows and says why', async () => {
    mkdirSync(join(dir, 's3'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: join(dir, 's3'),
      configureBuckets: [
        { name: 'media', configs: [] },
        { name: 'other', configs: [] },
      ],
    });
    const endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
    const { redis, sandbox } = await place.start({}, { credits: 1_000_000, jobSeconds: 0.5 });
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(
      join(dir, 'rows.csv'),
      [
        'First name,company,voice,avatar,logo,email',
        'Ana,Acme,Ava,SandboxBen,logo.png,a@example.com',
        'Ben,Acme,Ava,SandboxBen,logo.png,b@example.com',
      ].join('\n'),
    );
    const worker = (name: string, args: string[], env: Record<string, string>) => {
      const p = cliProcess(
        [
          ...['worker', '--name', name, '--base-url', sandbox.url, '--queue', redisTarget(redis.url).shown],
          ...['--data-dir', join(dir, `${name}-data`), '--out', join(dir, `${name}-out`), ...args],
        ],
        { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: redis.url, ...env },
      );
      started.push(p);
      return p;
    };
    // The run's account, other storages: another bucket, and its service's sandbox (no --media-storage).
    const otherBucket = worker('other-bucket', ['--media-storage', 'environment'], bucketEnv(endpoint, 'other'));
    const sandboxOnly = worker('sandbox-only', [], {});
    await Promise.all([whenSaid(otherBucket, 'takes rows from'), whenSaid(sandboxOnly, 'takes rows from')]);

    const runData = join(dir, 'run-data');
    const out = join(dir, 'out');
    const run = cliProcess(
      [
        ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', out],
        ...['--queue', redis.url, '--base-url', sandbox.url, '--data-dir', runData, '--yes', '--json'],
        ...['--media-storage', 'environment'],
      ],
      { STUDIO_API_KEY: sandbox.apiKey, ...bucketEnv(endpoint, 'media') },
    );
    started.push(run);

    await Promise.all([
      whenSaid(otherBucket, 'makes no row of campaign'),
      whenSaid(sandboxOnly, 'makes no row of campaign'),
    ]);
    const runsStorage = `the run's links go to the bucket media at ${endpoint}`;
    expect(otherBucket.said()).toContain(
      `${runsStorage}, and the pictures this worker renders would go to the bucket other at ${endpoint}. Start it with the run's storage (--media-storage).`,
    );
    expect(sandboxOnly.said()).toContain(
      `${runsStorage}, and the pictures this worker renders would go to the sandbox at ${new URL(sandbox.url).origin}.`,
    );

    // The run's record in Redis names its storage, and nothing of its keys.
    const records = new Redis(redisTarget(redis.url).options);
    try {
      const recorded = await new RunShelf(records).run('campaign', campaignIdFor(out));
      expect(recorded?.account?.storage).toEqual({ kind: 's3', endpoint, bucket: 'media' });
      expect(JSON.stringify(recorded)).not.toMatch(/S3RVER|secret/i);
    } finally {
      records.disconnect();
    }

    // The run's status says why each refuses, while its rows wait; nothing was made.
    await until('both refusals in the run’s status', async () => {
      const asked = cliProcess(['campaign', 'status', out, '--data-dir', runData], {});
      await exitWithin(asked, 60_000, 'campaign status');
      return (
        (asked.printed().match(/refuses this campaign: .*the run's links go to the bucket media/g) ?? []).length === 2
      );
    });
    expect(run.child.exitCode).toBeNull();
    expect(made('other-bucket')).toEqual([]);
    expect(made('sandbox-only')).toEqual([]);

    // A worker of the run's storage: every row made by it, its pictures in the run's bucket.
    const right = worker('right', ['--media-storage', 'environment'], bucketEnv(endpoint, 'media'));
    await whenSaid(right, 'takes rows from');
    expect(await exitWithin(run, 240_000, 'the campaign to end'), run.said()).toBe(EXIT.ok);
    expect(JSON.parse(run.printed())).toMatchObject({ counts: { done: ROWS } });
    expect(made('right')).toHaveLength(ROWS);
    expect([...made('other-bucket'), ...made('sandbox-only')]).toEqual([]);

    await stopSandbox(sandbox);
    const jobs = (
      readSandboxRecords(sandbox.dataDir).state as { jobs: Record<string, { kind: string; request: unknown }> }
    ).jobs;
    const links = Object.values(jobs)
      .filter((j) => j.kind === 'avatar_video')
      .flatMap((j) => [...JSON.stringify(j.request).matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]));
    expect(links.some((l) => l.startsWith(`${endpoint}/media/`))).toBe(true);
    expect(links.filter((l) => l.startsWith(`${endpoint}/other/`))).toEqual([]);
  }, 300_000);
});
