// Issue 64: the pictures a worker renders for a row go to a storage the service reaches. A worker given
// `--media-storage environment` (STUDIO_S3_*, a real S3-compatible server) puts each row's text picture
// in that bucket, by content, and the service fetches it from there. Real processes: Redis, the sandbox,
// the worker, the campaign run; s3rver in this process.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { readSandboxRecords } from '../../../electron/emulator/state/store';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin } from './queue-processes';

const ROWS = 2;
const place = queuePlace('studio-worker-media-');
const dir = place.dir;
let s3: S3rver | null = null;
afterAll(async () => {
  await s3?.close();
});

describe('a worker given a media storage', () => {
  it('puts the pictures it renders there, and the service fetches them', async () => {
    mkdirSync(join(dir, 's3'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: join(dir, 's3'),
      configureBuckets: [{ name: 'media', configs: [] }],
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
    await place.worker('w1', redis.url, sandbox, {
      args: ['--media-storage', 'environment'],
      env: {
        STUDIO_S3_ENDPOINT: endpoint,
        STUDIO_S3_BUCKET: 'media',
        STUDIO_S3_PATH_STYLE: '1',
        STUDIO_S3_ACCESS_KEY_ID: 'S3RVER',
        STUDIO_S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
    const run = cliProcess(
      [
        ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
        ...['--queue', redis.url, '--base-url', sandbox.url, '--data-dir', join(dir, 'run-data'), '--yes', '--json'],
      ],
      { STUDIO_API_KEY: sandbox.apiKey },
    );
    expect(await exitWithin(run, 240_000, 'the campaign to end'), run.said()).toBe(EXIT.ok);
    expect(JSON.parse(run.printed())).toMatchObject({ counts: { done: ROWS } });

    await stopSandbox(sandbox);
    const jobs = (
      readSandboxRecords(sandbox.dataDir).state as { jobs: Record<string, { kind: string; request: unknown }> }
    ).jobs;
    const links = Object.values(jobs)
      .filter((j) => j.kind === 'avatar_video')
      .flatMap((j) => [...JSON.stringify(j.request).matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]));
    // Each row's own text picture, from the bucket; the template's and the sheet's files from the service's storage.
    const inBucket = new Set(links.filter((l) => l.startsWith(`${endpoint}/media/`)).map((l) => new URL(l).pathname));
    expect(inBucket.size).toBeGreaterThanOrEqual(ROWS);
    for (const link of links) expect([endpoint, new URL(sandbox.url).origin], link).toContain(new URL(link).origin);
  }, 300_000);
});
