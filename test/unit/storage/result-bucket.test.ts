// The bucket a `studio worker --bucket` copies results into, against a real S3-compatible server (s3rver):
// how a result's key is named, that an upload made again writes the same object, and what is refused.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { bucketLocation, openResultBucket, resultKey } from '../../../electron/services/storage/result-bucket';
import { StorageManager } from '../../../electron/services/storage/storage-manager';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';

const dir = mkdtempSync(join(tmpdir(), 'studio-result-bucket-'));
const secret = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let server: S3rver;
let endpoint = '';
let client: S3Client;

beforeAll(async () => {
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: 'results', configs: [] }],
  });
  endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: secret });
});
afterAll(async () => {
  client.destroy();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storages(name: string, key: typeof secret | null) {
  const manager = new StorageManager({
    createStore: createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => {} }),
    vault: new MemoryVault(),
    sandbox: async () => ({ baseUrl: 'http://127.0.0.1:1', apiKey: 'x' }),
  });
  const added = await manager.add({
    name,
    endpoint,
    region: 'us-east-1',
    bucket: 'results',
    prefix: 'team/',
    pathStyle: true,
    publicBaseUrl: null,
  });
  if (key) await manager.setSecret(added.id, key);
  return { manager, id: added.id };
}

async function objects(): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'results' }));
  return (listed.Contents ?? []).map((o) => o.Key as string).sort();
}

async function sha256Of(key: string): Promise<string> {
  const got = await client.send(new GetObjectCommand({ Bucket: 'results', Key: key }));
  return createHash('sha256')
    .update(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray())
    .digest('hex');
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('resultKey', () => {
  it('names the run, then the file relative to its folder, and never climbs out of the run', () => {
    expect(resultKey('camp-1', '07 - Ana.mp4')).toBe('camp-1/07 - Ana.mp4');
    expect(resultKey('camp-1', 'voices/line 3.mp3')).toBe('camp-1/voices/line 3.mp3');
    expect(resultKey('camp-1', 'voices\\line 3.mp3')).toBe('camp-1/voices/line 3.mp3');
    expect(resultKey('camp-1', '../../other-run/07.mp4')).toBe('camp-1/other-run/07.mp4');
    expect(resultKey('camp-1', '/07.mp4')).toBe('camp-1/07.mp4');
    expect(() => resultKey('camp-1', '..')).toThrow(/names no file of run camp-1/);
  });

  it('writes the place as s3://bucket/key', () => {
    expect(bucketLocation({ bucket: 'results', key: 'team/camp-1/07 - Ana.mp4' })).toBe(
      's3://results/team/camp-1/07 - Ana.mp4',
    );
  });
});

describe('a bucket of results', () => {
  it('puts a file under its run and name (the prefix before), and the same upload again writes the same object', async () => {
    const { manager } = await storages('Team bucket', secret);
    const bucket = await openResultBucket(manager, 'team BUCKET');
    const first = Buffer.from('first take of row 7');
    const file = join(dir, '07 - Ana.mp4');
    writeFileSync(file, first);

    const copy = await bucket.put('camp-1', '07 - Ana.mp4', file);
    expect(copy).toEqual({ storage: 'Team bucket', bucket: 'results', key: 'team/camp-1/07 - Ana.mp4' });
    const again = await bucket.put('camp-1', '07 - Ana.mp4', file);
    expect(again).toEqual(copy);
    expect(await objects()).toEqual(['team/camp-1/07 - Ana.mp4']);
    expect(await sha256Of(copy.key)).toBe(sha256(first));

    // The row made again (a new take): its newer video replaces the object at the same key.
    const second = Buffer.from('second take of row 7, longer');
    writeFileSync(file, second);
    expect(await bucket.put('camp-1', '07 - Ana.mp4', file)).toEqual(copy);
    expect(await objects()).toEqual(['team/camp-1/07 - Ana.mp4']);
    expect(await sha256Of(copy.key)).toBe(sha256(second));
  });

  // s3rver does not check version 4 signatures, so its refusal of a wrong key is of an unknown key id.
  it('says which storage and bucket refused an upload (a wrong key)', async () => {
    const { manager } = await storages('Wrong key', { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'not-the-secret' });
    const bucket = await openResultBucket(manager, 'Wrong key');
    const file = join(dir, 'refused.mp4');
    writeFileSync(file, 'never stored');
    await expect(bucket.put('camp-2', 'refused.mp4', file)).rejects.toThrow(
      /^the upload to the storage "Wrong key" \(bucket results\) failed: .+/,
    );
    expect(await objects()).not.toContain('team/camp-2/refused.mp4');
  });

  it('refuses the sandbox, an unknown storage and one without its key, before anything is uploaded', async () => {
    const { manager } = await storages('No key yet', null);
    await expect(openResultBucket(manager, 'sandbox')).rejects.toThrow(/sandbox storage is not a bucket/);
    await expect(openResultBucket(manager, 'Elsewhere')).rejects.toThrow(/No storage named "Elsewhere"/);
    await expect(openResultBucket(manager, 'No key yet')).rejects.toThrow(/"No key yet" has no access key/);
  });
});
