import type { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { StorageManager } from '../../../electron/services/storage/storage-manager';
import { Uploader, UploadError, LINK_MARGIN_MS } from '../../../electron/services/storage/uploader';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { PRESIGNED_LINK_SECONDS } from '@common/bridge/storage';

/** A real S3-compatible server (s3rver) on loopback: the SDK is never mocked. */
const dir = mkdtempSync(join(tmpdir(), 'studio-s3-'));
let server: S3rver;
let endpoint = '';
const secret = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

beforeAll(async () => {
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: 'studio-media', configs: [] }],
  });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(now = () => Date.now()) {
  const log = new MemoryLogger();
  const createStore = createMemoryStoreFactory({ log, notify: () => {} });
  const vault = new MemoryVault();
  const manager = new StorageManager({
    createStore,
    vault,
    sandbox: async () => ({ baseUrl: 'http://127.0.0.1:1', apiKey: 'x' }),
    now,
  });
  const records = openRecords(mkdtempSync(join(dir, 'data-'))).uploads;
  const uploader = new Uploader({ records, backend: (id) => manager.backend(id), now });
  return { manager, uploader, vault };
}

const config = (extra = {}) => ({
  name: 'Local S3',
  endpoint,
  region: 'us-east-1',
  bucket: 'studio-media',
  prefix: 'studio/',
  pathStyle: true,
  publicBaseUrl: null,
  ...extra,
});

function localFile(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('S3-compatible storage against a real server', () => {
  it('tests the storage: upload, read back through the presigned link, delete', async () => {
    const { manager } = setup();
    const view = await manager.add(config());
    expect(view.hasSecret).toBe(false);
    expect((await manager.test(view.id)).message).toMatch(/no access key/);
    await manager.setSecret(view.id, secret);
    const result = await manager.test(view.id);
    expect(result).toMatchObject({ ok: true });
    expect(result.message).toMatch(/read it back/);
  });

  it('uploads a file once and serves its bytes through a presigned link valid 7 days', async () => {
    const { manager, uploader } = setup();
    const view = await manager.add(config());
    await manager.setSecret(view.id, secret);
    const bytes = Buffer.from('not really a png, but bytes all the same');
    const path = localFile('logo.png', bytes);
    const progress: number[] = [];
    const first = await uploader.uploadFile(path, view.id, {
      onProgress: (phase, done) => phase === 'uploading' && progress.push(done),
    });
    expect(first.how).toBe('uploaded');
    expect(first.url).toContain('X-Amz-Signature');
    expect(first.url).toContain(`X-Amz-Expires=${PRESIGNED_LINK_SECONDS}`);
    expect(first.expiresAt! - Date.now()).toBeGreaterThan(PRESIGNED_LINK_SECONDS * 1000 - 60_000);
    expect(progress.at(-1)).toBe(bytes.length);
    const fetched = await fetch(first.url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(bytes);

    // The same bytes under another name: no second upload.
    const again = await uploader.uploadFile(localFile('copy-of-logo.png', bytes), view.id);
    expect(again).toMatchObject({ how: 'reused', url: first.url });
  });

  it('renews a link about to expire without sending the bytes again', async () => {
    let clock = Date.now();
    const { manager, uploader } = setup(() => clock);
    const view = await manager.add(config());
    await manager.setSecret(view.id, secret);
    const path = localFile('clip.mp4', Buffer.from('clip bytes'));
    const first = await uploader.uploadFile(path, view.id);
    clock = first.expiresAt! - LINK_MARGIN_MS + 1000;
    const renewed = await uploader.uploadFile(path, view.id);
    expect(renewed.how).toBe('relinked');
    expect(renewed.expiresAt).toBeGreaterThan(first.expiresAt!);
  });

  it('sends bytes once: another process with no record of them links the object already there', async () => {
    const puts: string[] = [];
    const count = (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) =>
      puts.push(...event.Records.filter((r) => r.eventName.startsWith('ObjectCreated')).map((r) => r.s3.object.key));
    // s3rver emits an event per object written (its typings leave the emitter out).
    const events = server as unknown as EventEmitter;
    events.on('event', count);
    try {
      const path = localFile('caption.png', Buffer.from('the same caption picture'));
      const one = setup();
      const view = await one.manager.add(config());
      await one.manager.setSecret(view.id, secret);
      // A second worker: its own records, the same bucket.
      const two = setup();
      const again = await two.manager.add(config());
      await two.manager.setSecret(again.id, secret);
      const first = await one.uploader.uploadFile(path, view.id);
      const second = await two.uploader.uploadFile(path, again.id);
      expect(new URL(second.url).pathname).toBe(new URL(first.url).pathname);
      expect(puts).toHaveLength(1);
      expect(Buffer.from(await (await fetch(second.url)).arrayBuffer()).toString()).toBe('the same caption picture');
    } finally {
      events.off('event', count);
    }
  });

  it('links under the public base URL for a public bucket', async () => {
    const { manager, uploader } = setup();
    const view = await manager.add(config({ name: 'Public', publicBaseUrl: `${endpoint}/studio-media` }));
    await manager.setSecret(view.id, secret);
    const result = await uploader.uploadFile(localFile('voice.mp3', Buffer.from('voice')), view.id);
    expect(result.expiresAt).toBeNull();
    expect(result.url).toMatch(new RegExp(`^${endpoint}/studio-media/studio/[0-9a-f]{16}/voice\\.mp3$`));
  });

  it('drops the key when the storage is pointed at another bucket or endpoint', async () => {
    const { manager } = setup();
    const view = await manager.add(config());
    await manager.setSecret(view.id, secret);
    expect((await manager.update(view.id, { prefix: 'other/' })).hasSecret).toBe(true);
    expect((await manager.update(view.id, { bucket: 'another-bucket' })).hasSecret).toBe(false);
  });

  it('names the file when an upload fails and sends nothing for the other files', async () => {
    const { manager, uploader } = setup();
    const view = await manager.add(config({ bucket: 'no-such-bucket' }));
    await manager.setSecret(view.id, secret);
    const error = await uploader
      .uploadAll([localFile('a.png', Buffer.from('a')), localFile('b.png', Buffer.from('b'))], view.id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).message).toMatch(/^Could not upload [ab]\.png: /);
  });
});
