// Results in a bucket (issue 52): a campaign made on a queue by a `studio worker --bucket`, against the
// sandbox in its own process and a real S3-compatible server (s3rver). Every row's video is in the bucket
// with the bytes of the starting studio's copy, and its manifest says where. A worker whose bucket refuses
// it fails its rows with the reason; the rows made again are saved by the studio from the videos made, and
// by the sandbox's own records no voiceover and no video was made twice.
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Papa from 'papaparse';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { readSandboxRecords } from '../../../electron/emulator/state/store';

const place = queuePlace('studio-campaign-bucket-');
const dir = place.dir;
const BUCKET = 'team-results';
const PREFIX = 'campaigns/';

let s3: S3rver | null = null;
let client: S3Client | null = null;
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

const sheet = (people: readonly string[]) =>
  [
    'First name,company,voice,avatar,logo,email',
    ...people.map((p) => `${p},Acme,Ava,SandboxBen,logo.png,${p.toLowerCase()}@example.com`),
  ].join('\n');

type ManifestLine = Record<string, string>;
const manifestOf = (out: string): ManifestLine[] =>
  Papa.parse<ManifestLine>(readFileSync(join(dir, out, 'manifest.csv'), 'utf8'), { header: true, skipEmptyLines: true })
    .data;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function objectSha256(location: string): Promise<string> {
  const key = location.slice(`s3://${BUCKET}/`.length);
  const got = await (client as S3Client).send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return sha256(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
}

/** Stops a worker as its user would (SIGTERM: the rows under way end first) and waits until it is gone. */
async function stopped(worker: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  await gone;
}

describe('a campaign on a queue whose worker copies results to a bucket', () => {
  it('has every video in the bucket and in the manifest; a refused upload fails the row, made again without paying again', async () => {
    const { redis, sandbox } = await place.start({}, { credits: 1_000_000, jobSeconds: 0.5 });
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: join(dir, 's3'),
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
    // s3rver checks the key id, not version 4 signatures: a refusing bucket is given a key it does not know.
    const keys = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: keys });
    const storageEnv = (accessKeyId: string) => ({
      STUDIO_S3_ENDPOINT: endpoint,
      STUDIO_S3_BUCKET: BUCKET,
      STUDIO_S3_PREFIX: PREFIX,
      STUDIO_S3_PATH_STYLE: '1',
      STUDIO_S3_ACCESS_KEY_ID: accessKeyId,
      STUDIO_S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
    });
    const bucketArgs = ['--bucket', 'environment'];

    const { project } = smallTemplate();
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(join(dir, 'six.csv'), sheet(['Ana', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay']));
    writeFileSync(join(dir, 'three.csv'), sheet(['Gus', 'Hal', 'Ivy']));

    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { STUDIO_API_KEY: sandbox.apiKey },
      cwd: dir,
    };
    const common = [
      '--queue',
      redis.url,
      '--base-url',
      sandbox.url,
      '--data-dir',
      join(dir, 'data'),
      '--yes',
      '--json',
    ];
    const campaign = async (rows: string, folder: string, more: string[] = []) => {
      const code = await runCli(['campaign', 'run', 'greeting.json', rows, '--out', folder, ...more, ...common], io);
      const end = JSON.parse(out[out.length - 1]) as { counts: Record<string, number> };
      return { code, counts: end.counts, said: err.join('\n') };
    };
    /** Each done row's video is in the bucket under the campaign's id and its name, with the studio's bytes. */
    const inBucket = async (folder: string, lines: ManifestLine[]) => {
      for (const line of lines) {
        expect(line.status).toBe('done');
        expect(line.bucket).toBe(`s3://${BUCKET}/${PREFIX}${line.campaign}/${line.file}`);
        expect(await objectSha256(line.bucket)).toBe(sha256(readFileSync(join(dir, folder, line.file))));
      }
    };

    // A worker with a bucket that takes its uploads.
    const copying = await place.worker('w-bucket', redis.url, sandbox, {
      args: bucketArgs,
      env: storageEnv(keys.accessKeyId),
    });
    const six = await campaign('six.csv', 'six');
    expect(six.code, six.said).toBe(EXIT.ok);
    expect(six.counts.done).toBe(6);
    const sixLines = manifestOf('six');
    expect(sixLines).toHaveLength(6);
    await inBucket('six', sixLines);
    await stopped(copying);

    // A worker whose bucket refuses it: its rows fail at their save, saying why, and the studio saves nothing.
    const refused = await place.worker('w-refused', redis.url, sandbox, {
      args: bucketArgs,
      env: storageEnv('NOT-A-KNOWN-KEY'),
    });
    const three = await campaign('three.csv', 'three');
    expect(three.code, three.said).toBe(EXIT.failed);
    expect(three.counts.failed).toBe(3);
    for (const line of manifestOf('three')) {
      expect(line.status).toBe('failed');
      expect(line.reason).toMatch(
        /^the video was made and saved on the worker, but the upload to the storage "Environment S3" \(bucket team-results\) failed: .+; retry the row to save it without paying again$/,
      );
      expect(line.file).toBe('');
    }
    await stopped(refused);

    // Made again: each row is saved by the studio from the video already made (nothing paid again); the
    // bucket has no copy of it, and the manifest says none.
    const retried = await campaign('three.csv', 'three', ['--retry-failed']);
    expect(retried.code, retried.said).toBe(EXIT.ok);
    expect(retried.counts.done).toBe(3);
    const threeLines = manifestOf('three');
    expect(threeLines.map((l) => [l.status, l.bucket ?? ''])).toEqual([
      ['done', ''],
      ['done', ''],
      ['done', ''],
    ]);
    for (const line of threeLines) expect(existsSync(join(dir, 'three', line.file))).toBe(true);

    // By the sandbox's own records: one voiceover per line said and one video per row, none made twice.
    await stopSandbox(sandbox);
    const state = readSandboxRecords(sandbox.dataDir).state as {
      jobs: Record<string, { kind: string; request: Record<string, unknown> }>;
    };
    const texts = Object.values(state.jobs)
      .filter((j) => j.kind === 'tts')
      .map((j) => String(j.request.input_text));
    expect(texts.length - new Set(texts).size).toBe(0);
    const videos = Object.values(state.jobs).filter((j) => j.kind === 'avatar_video');
    expect(videos).toHaveLength(9);
  }, 900_000);
});
