// The avatars domain through the whole host (createDomains) against the sandbox: the list paged as the
// interface pages it, one avatar's detail, and uploads followed as jobs to 3 (or 4 with the reason),
// with the catalogue told at each step so the editor's Uploaded tab follows.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { AvatarUploadCheck } from '../../../electron/common/bridge/avatars';
import { archiveSettingsSpec } from '../../../electron/services/downloads/archive';
import { createDomains, type Domains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { resolveMediaBinary } from '../../../electron/services/system/binaries';
import { start } from '../emulator/harness';
import { until } from '../../wait';

let em: RunningEmulator;
let dir: string;
let base: ReturnType<typeof createMemoryHostBase>;
let domains: Domains;
let clipUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'studio-avatars-'));
  em = await start({ dataDir: join(dir, 'sandbox'), jobSeconds: 0.4 });
  base = createMemoryHostBase({
    dataDir: join(dir, 'data'),
    sandbox: async () => ({ baseUrl: em.url, apiKey: em.apiKey }),
  });
  // Finished results would otherwise be archived into the user's Videos folder.
  base
    .createStore(archiveSettingsSpec)
    .set({ enabled: false, videoFolder: join(dir, 'v'), audioFolder: join(dir, 'a'), template: '{id}' });
  domains = createDomains(base);
  const { items } = await domains.handlers['avatars.list']({ from: 2 });
  clipUrl = items[0].url;
}, 120_000);
afterAll(async () => {
  await domains?.disposeAll();
  await em?.close();
  rmSync(dir, { recursive: true, force: true });
});

const changes = () => base.emitted.filter((e) => e.event === 'catalogue.changed').length;
const jobOf = async (id: string) => domains.handlers['jobs.get'](id);

describe('avatars.list', () => {
  it('pages as the interface pages (page from 1, a full page may have more) and filters by from and type', async () => {
    const { handlers } = domains;
    const first = await handlers['avatars.list']({ from: 2, page: 1, size: 2 });
    expect(first).toMatchObject({ page: 1, size: 2, hasMore: true });
    expect(first.items).toHaveLength(2);
    const second = await handlers['avatars.list']({ from: 2, page: 2, size: 2 });
    expect(second.hasMore).toBe(false);
    expect(second.items.map((a) => a.avatar_id)).not.toContain(first.items[0].avatar_id);
    const all = await handlers['avatars.list']({ from: 2 });
    expect(all.items).toHaveLength(first.items.length + second.items.length);
    expect(all.size).toBe(100);
    for (const type of [1, 2] as const) {
      const typed = await handlers['avatars.list']({ type });
      expect(typed.items.every((a) => a.type === type)).toBe(true);
    }
  });
});

describe('avatars.detail', () => {
  it('reads one avatar by its record id or by its avatar_id, and names an id that is neither', async () => {
    const { handlers } = domains;
    const [listed] = (await handlers['avatars.list']({ from: 2 })).items;
    const byRecord = await handlers['avatars.detail'](listed._id as string);
    expect(byRecord).toMatchObject({ _id: listed._id, avatar_id: listed.avatar_id, status: 3, from: 2 });
    const byAvatarId = await handlers['avatars.detail'](listed.avatar_id);
    expect(byAvatarId).toMatchObject({ _id: listed._id, thumbnailUrl: listed.thumbnailUrl });
    await expect(handlers['avatars.detail']('nosuchavatar')).rejects.toThrow(
      'No avatar with the id "nosuchavatar" on this connection',
    );
  });
});

describe('avatars.upload', () => {
  it('follows an upload as a job to status 3; the catalogue hears of it when sent and when ready', async () => {
    const { handlers } = domains;
    const before = changes();
    const sent = await handlers['avatars.upload']({
      source: clipUrl,
      avatarId: 'Presenter1',
      name: 'My presenter',
      type: 1,
      // The sandbox publishes its price list: an avatar upload is 5 credits there.
      confirmation: { by: 'user', credits: 5 },
    });
    expect(sent.status).toBe('submitted');
    if (sent.status !== 'submitted') return;
    expect(sent.job.request).toMatchObject({
      url: clipUrl,
      avatar_id: 'Presenter1',
      name: 'My presenter',
      type: 1,
      url_from: 1,
    });
    expect(sent.job.purpose).toEqual({ type: 'avatar-upload' });
    // Told at once: the editor lists it as processing while the service works on it.
    expect(changes()).toBe(before + 1);
    const listed = (await handlers['avatars.list']({ from: 3 })).items.find((a) => a.avatar_id === 'Presenter1');
    expect(listed?.status === 1 || listed?.status === 2 || listed?.status === 3).toBe(true);

    await until('the upload job to complete', async () => (await jobOf(sent.job.id)).phase === 'completed');
    await until('a second catalogue change after the upload', () => changes() === before + 2);
    const done = await handlers['avatars.detail']('Presenter1');
    expect(done).toMatchObject({ avatar_id: 'Presenter1', status: 3, from: 3, type: 1 });
    expect((await jobOf(sent.job.id)).remoteStatus).toBe(3);
  });

  it("ends a failed upload at status 4 with the service's reason, and refreshes the catalogue", async () => {
    const { handlers } = domains;
    // A voice preview is a sound: the sandbox, like the service, needs a picture or a video.
    const [voice] = await handlers['catalogue.voices']({ from: 3 });
    const before = changes();
    const sent = await handlers['avatars.upload']({
      source: voice.preview,
      avatarId: 'SoundOnly',
      name: 'Sound only',
      type: 2,
      // The sandbox publishes its price list: an avatar upload is 5 credits there.
      confirmation: { by: 'user', credits: 5 },
    });
    if (sent.status !== 'submitted') throw new Error('not sent');
    await until('the upload job to fail', async () => (await jobOf(sent.job.id)).phase === 'failed');
    const failed = await jobOf(sent.job.id);
    expect(failed.remoteStatus).toBe(4);
    expect(failed.error?.message).toContain('url holds no picture');
    await until('a second catalogue change after the upload', () => changes() === before + 2);
  });

  it('refuses an avatar_id already used on the connection before anything is sent', async () => {
    const { handlers } = domains;
    const jobs = (await handlers['jobs.list']()).length;
    const [official] = (await handlers['avatars.list']({ from: 2 })).items;
    await expect(
      handlers['avatars.upload']({
        source: clipUrl,
        avatarId: official.avatar_id,
        name: 'Copy',
        type: 1,
        confirmation: { by: 'script' },
      }),
    ).rejects.toThrow(`The avatar_id "${official.avatar_id}" is already used on this connection`);
    // The same check on its own, as the studio runs it before asking the price: refused, nothing sent.
    await expect(
      handlers['avatars.checkUpload']({ source: clipUrl, avatarId: official.avatar_id, name: 'Copy', type: 1 }),
    ).rejects.toThrow(`The avatar_id "${official.avatar_id}" is already used`);
    await expect(
      handlers['avatars.checkUpload']({ source: clipUrl, avatarId: 'FreshId7', name: 'Fresh', type: 1 }),
    ).resolves.toBeUndefined();
    expect((await handlers['jobs.list']()).length).toBe(jobs);
  });

  it("checks the request with the interface's rules: letters and digits only, a name, a type, a link or a chosen file", () => {
    const problems = (value: unknown) => (AvatarUploadCheck.safeParse(value).error?.issues ?? []).map((i) => i.message);
    expect(problems({ source: clipUrl, avatarId: 'my-avatar', name: 'A', type: 1 })).toEqual([
      'avatar_id may contain letters and digits only',
    ]);
    expect(problems({ source: clipUrl, avatarId: 'ok1', name: ' ', type: 3 })).toEqual([
      'give the avatar a name',
      'type must be 1 (talking avatar) or 2 (stream avatar)',
    ]);
    expect(problems({ source: '/home/me/clip.mp4', avatarId: 'ok1', name: 'A', type: 1 })).toEqual([
      'the avatar must be an http(s) link or a local file you chose',
    ]);
    expect(problems({ source: clipUrl, avatarId: 'Ok1', name: 'A', type: 2, urlFrom: 2 })).toEqual([]);
  });

  it('uploads a granted local file to the storage first and sends its link; an ungranted one is refused by name', async () => {
    const { handlers } = domains;
    const picture = join(dir, 'portrait.png');
    execFileSync((await resolveMediaBinary('ffmpeg')).path, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=teal:s=320x240',
      '-frames:v',
      '1',
      picture,
    ]);
    const chosen = await domains.importPath(picture);
    const sent = await handlers['avatars.upload']({
      source: chosen.url,
      avatarId: 'Portrait1',
      name: 'Portrait',
      type: 1,
      urlFrom: 2,
      // The sandbox publishes its price list: an avatar upload is 5 credits there.
      confirmation: { by: 'user', credits: 5 },
    });
    if (sent.status !== 'submitted') throw new Error('not sent');
    // A local file goes up to the sandbox's own storage: an own link, url_from 1 whatever was asked.
    expect(sent.job.request).toMatchObject({
      url: expect.stringMatching(new RegExp(`^${em.url}/files/up-[0-9a-f]+-portrait\\.png$`)),
      url_from: 1,
    });
    await until('the upload job to complete', async () => (await jobOf(sent.job.id)).phase === 'completed');

    const stranger = join(dir, 'stranger.png');
    writeFileSync(stranger, 'not chosen');
    const jobs = (await handlers['jobs.list']()).length;
    await expect(
      handlers['avatars.upload']({
        source: pathToFileURL(stranger).href,
        avatarId: 'Stranger1',
        name: 'S',
        type: 1,
        confirmation: { by: 'script' },
      }),
    ).rejects.toThrow(/stranger\.png was not chosen or dropped/);
    expect((await handlers['jobs.list']()).length).toBe(jobs);
  }, 120_000);
});
