import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { SANDBOX_STORAGE_ID } from '@common/bridge/storage';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { StorageManager } from '../../../electron/services/storage/storage-manager';
import { lightFetch, type LightFetch } from '../../../electron/services/net/light-fetch';
import { Uploader, UploadError } from '../../../electron/services/storage/uploader';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { UPLOAD_LIMIT_BYTES } from '../../../electron/emulator/routes/uploads';
import { start } from '../emulator/harness';

let em: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'studio-sandbox-upload-'));

beforeAll(async () => {
  em = await start({ dataDir: join(dir, 'sandbox') });
});
afterAll(async () => {
  await em.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One process's storages and uploader, with its own record of uploads (as each worker has). */
function setup(sandboxFetch: LightFetch = lightFetch) {
  const log = new MemoryLogger();
  const createStore = createMemoryStoreFactory({ log, notify: () => {} });
  const manager = new StorageManager({
    createStore,
    vault: new MemoryVault(),
    sandbox: async () => ({ baseUrl: em.url, apiKey: em.apiKey }),
    sandboxFetch,
  });
  return new Uploader({
    records: openRecords(mkdtempSync(join(dir, 'data-'))).uploads,
    backend: (id) => manager.backend(id),
  });
}

function png(name: string, color: string): string {
  const path = join(dir, name);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=64x48`,
    '-frames:v',
    '1',
    path,
  ]);
  return path;
}

describe('the sandbox as a storage', () => {
  it('hosts a local picture and serves the same bytes at a /files link', async () => {
    const uploader = setup();
    const path = png('logo.png', 'red');
    const result = await uploader.uploadFile(path, SANDBOX_STORAGE_ID);
    expect(result.how).toBe('uploaded');
    expect(result.url).toMatch(new RegExp(`^${em.url}/files/up-[0-9a-f]{16}-logo\\.png$`));
    const served = await fetch(result.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(readFileSync(path));
    expect((await uploader.uploadFile(path, SANDBOX_STORAGE_ID)).how).toBe('reused');
  });

  it('names a file by its content: another process with no record of it gets the same link and sends no bytes', async () => {
    const puts: string[] = [];
    const counting: LightFetch = (input, init) => {
      if (init.method === 'PUT') puts.push(input);
      return lightFetch(input, init);
    };
    // Two workers render the same caption picture, each into a file of its own.
    const first = png('caption-a.png', 'blue');
    const again = join(dir, 'caption-b', 'caption-a.png');
    execFileSync('mkdir', ['-p', join(dir, 'caption-b')]);
    writeFileSync(again, readFileSync(first));
    const one = await setup(counting).uploadFile(first, SANDBOX_STORAGE_ID);
    const two = await setup(counting).uploadFile(again, SANDBOX_STORAGE_ID);
    expect(two.url).toBe(one.url);
    expect(puts).toHaveLength(1);
    // Other bytes under the same name are another object.
    const other = png('caption-a.png', 'green');
    const three = await setup(counting).uploadFile(other, SANDBOX_STORAGE_ID);
    expect(three.url).not.toBe(one.url);
    expect(puts).toHaveLength(2);
  });

  it('sends a file again when its connection drops before an answer, and gives up after three tries', async () => {
    // The first PUT's connection drops, as a busy sandbox's did in a 2,000-row run (a row lost to "fetch failed").
    let puts = 0;
    const dropping =
      (drops: number): LightFetch =>
      (input, init) => {
        if (init.method !== 'PUT') return lightFetch(input, init);
        puts += 1;
        return puts <= drops ? Promise.reject(new TypeError('fetch failed')) : lightFetch(input, init);
      };
    const path = png('dropped.png', 'yellow');
    const result = await setup(dropping(1)).uploadFile(path, SANDBOX_STORAGE_ID);
    expect(puts).toBe(2);
    // The whole file arrived on the second try.
    expect(Buffer.from(await (await fetch(result.url)).arrayBuffer())).toEqual(readFileSync(path));
    puts = 0;
    const error = await setup(dropping(5))
      .uploadFile(png('dropped-always.png', 'olive'), SANDBOX_STORAGE_ID)
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('Could not upload dropped-always.png: fetch failed');
    expect(puts).toBe(3);
  });

  it('refuses a file that is not media, naming it', async () => {
    const uploader = setup();
    const path = join(dir, 'notes.png');
    writeFileSync(path, 'just some text pretending to be a picture');
    const error = await uploader.uploadFile(path, SANDBOX_STORAGE_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect((error as Error).message).toMatch(
      /^Could not upload notes\.png: the sandbox refused the file: notes\.png is not a picture, video or sound/,
    );
  });

  it('refuses uploads without the key, and bodies over the size cap before reading them', async () => {
    const anonymous = await fetch(`${em.url}/__sandbox/uploads/a.png`, { method: 'PUT', body: 'x' });
    expect(await anonymous.json()).toMatchObject({ code: 1102 });
    // Announce more than the cap: the sandbox answers before reading the body.
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(`${em.url}/__sandbox/uploads/a.png`);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'PUT',
          headers: {
            'x-api-key': em.apiKey,
            'content-type': 'image/png',
            'content-length': String(UPLOAD_LIMIT_BYTES + 1),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.write('x');
    });
    expect(JSON.parse(answer)).toMatchObject({ code: 1003, msg: 'file is larger than 300 MB' });
  });
});
