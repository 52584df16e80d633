import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { LocalGrants, localGrantsSpec } from '../../../electron/services/media/local-grants';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { createStorageServices } from '../../../electron/services/storage/storage-services';
import { createUploadsDomain } from '../../../electron/services/storage/uploads-domain';
import { LocalMediaLinker } from '../../../electron/services/storage/local-media-linker';
import { start } from '../emulator/harness';

let em: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'studio-uploads-domain-'));
beforeAll(async () => {
  em = await start({ dataDir: join(dir, 'sandbox') });
});
afterAll(async () => {
  await em.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const base = createMemoryHostBase({ sandbox: async () => ({ baseUrl: em.url, apiKey: em.apiKey }) });
  const grants = new LocalGrants();
  const storage = createStorageServices({
    createStore: base.createStore,
    vault: base.vault,
    sandbox: base.sandbox,
    uploads: openRecords(mkdtempSync(join(dir, 'data-'))).uploads,
  });
  const linker = new LocalMediaLinker({
    storage,
    grants,
    onProgress: (progress) => base.emit('uploads.progress', progress),
  });
  return { base, grants, domain: createUploadsDomain(linker) };
}

describe('uploads.linkLocalMedia', () => {
  it('replaces every granted local file in a request body by its link, once per file', async () => {
    const { base, grants, domain } = setup();
    const picture = join(dir, 'logo one.png');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=yellow:s=40x30',
      '-frames:v',
      '1',
      picture,
    ]);
    const ref = grants.grant(picture);
    const body = {
      data: [
        {
          elements: [
            { type: 'image', url: ref },
            { type: 'image', url: ref },
            { type: 'image', url: 'https://cdn.example.com/a.png' },
          ],
        },
      ],
    };
    const linked = await domain.handlers['uploads.linkLocalMedia']({ uploadId: 'u1', value: body });
    const elements = (linked.value as typeof body).data[0].elements;
    expect(elements[0].url).toMatch(new RegExp(`^${em.url}/files/up-[0-9a-f]+-logo_one\\.png$`));
    expect(elements[1].url).toBe(elements[0].url);
    expect(elements[2].url).toBe('https://cdn.example.com/a.png');
    expect(linked.files).toHaveLength(1);
    expect(linked.files[0]).toMatchObject({ reference: ref, fileName: 'logo one.png', how: 'uploaded' });
    expect(base.emitted.some((e) => e.event === 'uploads.progress')).toBe(true);
  });

  it('refuses a local file the user did not choose, and sends nothing', async () => {
    const { domain } = setup();
    const secret = join(dir, 'secret.png');
    writeFileSync(secret, 'private');
    const body = { url: pathToFileURL(secret).href };
    await expect(domain.handlers['uploads.linkLocalMedia']({ uploadId: 'u2', value: body })).rejects.toThrow(
      /secret\.png was not chosen or dropped/,
    );
  });

  it('names the file when its upload fails', async () => {
    const { grants, domain } = setup();
    const broken = join(dir, 'broken.mp4');
    writeFileSync(broken, 'not a video');
    await expect(
      domain.handlers['uploads.linkLocalMedia']({ uploadId: 'u3', value: { url: grants.grant(broken) } }),
    ).rejects.toThrow(/^Could not upload broken\.mp4: /);
  });
});

describe('local file grants', () => {
  it('are kept across restarts in a record, so a reopened project can still use its files', () => {
    const base = createMemoryHostBase();
    const store = base.createStore(localGrantsSpec);
    const first = new LocalGrants(store);
    const ref = first.grant('/home/me/logo.png');
    const later = new LocalGrants(store);
    expect(later.pathOf(ref)).toBe('/home/me/logo.png');
    expect(later.pathOf(pathToFileURL('/home/me/other.png').href)).toBeNull();
    expect(later.pathOf('/home/me/logo.png')).toBeNull();
  });
});
