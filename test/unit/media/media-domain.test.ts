import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addElement,
  createProject,
  defaultMusicTrack,
  setProjectMusic,
  setSceneVoice,
  voicePartReference,
  type Project,
} from '@common/composition';
import { musicCalls, type PreviewDone } from '@common/bridge';
import { createMemoryHostBase, type EmittedEvent } from '../../../electron/services/host/memory-host';
import { createMediaDomain } from '../../../electron/services/media/media-domain';
import { createMediaToolkit } from '../../../electron/services/media/toolkit';
import { LocalGrants, NOT_GRANTED } from '../../../electron/services/media/local-grants';
import { makeImage, makeTone } from '../../fixtures/composition/make-media';
import { until, whenDefined } from '../../wait';

describe('media domain (preview.*, media.*)', () => {
  let dir: string;
  let emitted: EmittedEvent[];
  let module: ReturnType<typeof createMediaDomain>;
  let project: Project;
  let image: string;
  let grants: LocalGrants;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'media-domain-'));
    image = makeImage(join(dir, 'pic.png'), { colour: 'yellow', width: 64, height: 64 });
    makeImage(join(dir, 'canary.png'), { colour: 'red', width: 32, height: 32 });
    const voice = makeTone(join(dir, 'voice.wav'), { seconds: 0.6 });
    const base = createMemoryHostBase({ dataDir: join(dir, 'data'), platform: { chooseOpenPath: async () => image } });
    emitted = base.emitted;
    const toolkit = createMediaToolkit({
      dataDir: base.dataDir,
      resolve: { env: { PATH: '/usr/bin' }, loadPackagedFfmpeg: async () => null },
    });
    grants = new LocalGrants();
    module = createMediaDomain(base, { toolkit, grants });
    project = createProject({ id: 'demo', kind: 'avatar-video', output: '16:9-720p' });
    project = addElement(project, 'scene-1', {
      type: 'image',
      url: grants.grant(image),
      x: 0,
      y: 0,
      width: 640,
      height: 360,
    });
    project = setSceneVoice(project, 'scene-1', { kind: 'url', url: grants.grant(voice) });
    project = { ...project, scenes: [{ ...project.scenes[0], durationMs: 800 }] };
  });

  afterAll(async () => {
    await module.dispose?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const waitFor = (event: string, renderId: string): Promise<EmittedEvent> =>
    whenDefined(`${event} for ${renderId}`, () =>
      emitted.find((e) => e.event === event && (e.payload as { renderId: string }).renderId === renderId),
    );

  it('renders, reports progress and done, and reads the file back in chunks', async () => {
    const { renderId } = await module.handlers['preview.render'](project, { quality: 'preview' });
    const done = (await waitFor('preview.done', renderId)).payload as PreviewDone;
    expect(done).toMatchObject({ width: 640, height: 360, durationMs: 800, mimeType: 'video/mp4', notes: [] });
    expect(emitted.some((e) => e.event === 'preview.progress')).toBe(true);

    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const chunk = await module.handlers['preview.read'](done.fileId, offset, 4096);
      parts.push(Buffer.from(chunk.base64, 'base64'));
      offset += Buffer.from(chunk.base64, 'base64').length;
      if (chunk.done) break;
    }
    const whole = Buffer.concat(parts);
    expect(whole.length).toBe(done.sizeBytes);
    expect(whole.equals(readFileSync(join(dir, 'data/media/previews', done.fileId)))).toBe(true);
    await expect(module.handlers['preview.read']('gone.mp4', 0, 10)).rejects.toThrow(/no longer exists/);
  });

  it('reports a failure naming the element', async () => {
    const gone = grants.grant(join(dir, 'granted-then-deleted.png'));
    const broken = addElement(project, 'scene-1', {
      id: 'missing',
      type: 'image',
      url: gone,
      x: 0,
      y: 0,
      width: 128,
      height: 72,
    });
    const { renderId } = await module.handlers['preview.render'](broken, { quality: 'preview' });
    const failed = (await waitFor('preview.failed', renderId)).payload;
    expect(failed).toEqual({
      renderId,
      message: `Scene 1 (scene-1), element missing: the file ${join(dir, 'granted-then-deleted.png')} does not exist`,
      cancelled: false,
    });
  });

  // Finding 1 of the security audit: the page named any path in a project and got the picture back,
  // or told "does not exist" from "not a media file".
  const hostile = (url: string) =>
    addElement(project, 'scene-1', { id: 'probe', type: 'image', url, x: 0, y: 0, width: 128, height: 72 });
  const ungranted = () => [
    `file://${join(dir, 'canary.png')}`,
    join(dir, 'canary.png'),
    '/etc/shadow',
    'file:///etc/passwd',
    '/no/such/file.png',
    '/proc/self/environ',
    'ftp://example.com/a.png',
  ];

  it('preview.poster reads no local file the user did not grant, and says the same for every one', async () => {
    for (const url of ungranted()) {
      await expect(module.handlers['preview.poster'](hostile(url), { atMs: 0 }), url).rejects.toThrow(
        `Scene 1 (scene-1), element probe: ${NOT_GRANTED}`,
      );
    }
  });

  it('preview.render refuses ungranted local files with one message', async () => {
    for (const url of ungranted()) {
      const { renderId } = await module.handlers['preview.render'](hostile(url), { quality: 'preview' });
      expect((await waitFor('preview.failed', renderId)).payload, url).toEqual({
        renderId,
        message: `Scene 1 (scene-1), element probe: ${NOT_GRANTED}`,
        cancelled: false,
      });
    }
  });

  it('cancels a render', async () => {
    const long = { ...project, id: 'long', scenes: [{ ...project.scenes[0], durationMs: 600_000 }] };
    const { renderId } = await module.handlers['preview.render'](long, { quality: 'draft' });
    await waitFor('preview.progress', renderId);
    expect(await module.handlers['preview.cancel'](renderId)).toBe(true);
    expect((await waitFor('preview.failed', renderId)).payload).toMatchObject({ cancelled: true });
  });

  it('quitting cancels every render and kills every ffmpeg it started', async () => {
    const toolkit = createMediaToolkit({
      dataDir: join(dir, 'quit'),
      resolve: { env: { PATH: '/usr/bin' }, loadPackagedFfmpeg: async () => null },
    });
    const base = createMemoryHostBase({ dataDir: join(dir, 'quit') });
    const quitting = createMediaDomain(base, { toolkit, grants });
    const long = { ...project, id: 'q', scenes: [{ ...project.scenes[0], durationMs: 600_000 }] };
    const { renderId } = await quitting.handlers['preview.render'](long, { quality: 'draft' });
    await until("the long render's ffmpeg to run", () => toolkit.runner.running > 0);
    await quitting.dispose?.();
    expect(toolkit.runner.running).toBe(0);
    expect(base.emitted.find((e) => e.event === 'preview.failed')?.payload).toMatchObject({
      renderId,
      cancelled: true,
    });
  });

  it('makes a poster as a data URL', async () => {
    const poster = await module.handlers['preview.poster'](project, { atMs: 100 });
    expect(poster.dataUrl.startsWith('data:image/jpeg;base64,/9j/')).toBe(true);
    expect([poster.width, poster.height]).toEqual([640, 360]);
  });

  it('probes only links and files it handed out', async () => {
    for (const url of ungranted()) await expect(module.handlers['media.probe'](url), url).rejects.toThrow(NOT_GRANTED);
    const chosen = await module.handlers['media.chooseFile']({ kind: 'image' });
    expect(chosen).toMatchObject({ name: 'pic.png', info: { kind: 'image', width: 64, height: 64 } });
    expect(await module.handlers['media.probe'](chosen?.url ?? '')).toMatchObject({ kind: 'image' });
  });

  it('gives timeline frames and waveform peaks for allowed references', async () => {
    const chosen = await module.handlers['media.chooseFile']({ kind: 'image' });
    await expect(module.handlers['media.frame']('/etc/shadow', { atMs: 0, width: 32 })).rejects.toThrow(NOT_GRANTED);
    const frame = await module.handlers['media.frame'](chosen?.url ?? '', { atMs: 0, width: 32 });
    // A PNG may be transparent (a logo on the canvas): its still stays a PNG, where a JPEG would lose the alpha.
    expect(frame.dataUrl.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    await expect(module.handlers['media.waveform']('/etc/passwd', { buckets: 10 })).rejects.toThrow(NOT_GRANTED);
  });

  it('trims a voice to a scene: a granted MP3 of that length, fading out; ungranted sounds refused', async () => {
    const long = makeTone(join(dir, 'long voice.wav'), { seconds: 3 });
    await expect(module.handlers['media.trimAudio'](long, { durationMs: 1200 })).rejects.toThrow(NOT_GRANTED);
    const trimmed = await module.handlers['media.trimAudio'](grants.grant(long), {
      durationMs: 1200,
      name: 'long voice.wav',
    });
    expect(trimmed.name).toBe('long voice-1.2s.mp3');
    expect(trimmed.info.kind).toBe('audio');
    // MP3 frames round the length up by at most a frame (26 ms) plus the encoder's padding.
    expect(Math.abs((trimmed.info.durationMs ?? 0) - 1200)).toBeLessThan(80);
    expect(trimmed.url.startsWith('file:')).toBe(true);
    const peaks = await module.handlers['media.waveform'](trimmed.url, { buckets: 48 });
    // Full level through the middle, near silence at the very end (the fade).
    expect(peaks.peaks[24]).toBeGreaterThan(0.1);
    expect(peaks.peaks.at(-1)).toBeLessThan(0.04);
  });

  it("mixes a scene's music under its voice and reads the mix back for the canvas's Play; nothing else is read that way", async () => {
    const music = makeTone(join(dir, 'bed.wav'), { seconds: 1 });
    const mix = await module.handlers['music.mix']({
      project: setProjectMusic(project, defaultMusicTrack(grants.grant(music), 'bed.wav')),
      sceneId: 'scene-1',
    });
    expect(mix.fileId).toMatch(/^mix-[0-9a-f]+\.mp3$/);
    const chunk = await module.handlers['music.read'](mix.fileId, 0, 1 << 20);
    expect(chunk.done).toBe(true);
    expect(Buffer.from(chunk.base64, 'base64').equals(readFileSync(join(dir, 'data/media/music', mix.fileId)))).toBe(
      true,
    );
    await expect(module.handlers['music.read']('mix-00000000.mp3', 0, 10)).rejects.toThrow(/no longer kept/);
    // The page names a mix only: another file of the media folder is refused at the bridge.
    for (const id of ['../previews/a.mp4', 'mix-abc/../../x.mp3', 'voice.mp3'])
      expect(musicCalls['music.read'].args.safeParse([id, 0, 10]).success, id).toBe(false);
  });

  it("cuts a scene's voice into the parts a scene with timed elements is sent in: together they are the whole voice", async () => {
    const long = makeTone(join(dir, 'speech.wav'), { seconds: 3 });
    const cutProject = setSceneVoice({ ...project, scenes: [{ ...project.scenes[0], durationMs: 3000 }] }, 'scene-1', {
      kind: 'url',
      url: grants.grant(long),
    });
    const first = await module.handlers['music.voicePart']({
      project: cutProject,
      reference: voicePartReference('scene-1', 0, 2000),
    });
    const second = await module.handlers['music.voicePart']({
      project: cutProject,
      reference: voicePartReference('scene-1', 2000, 3000),
    });
    const lengths = await Promise.all([first, second].map(async (p) => (await module.probe(p.url)).durationMs ?? 0));
    // MP3 frames round each length up by at most a frame (26 ms) plus the encoder's padding.
    expect(Math.abs(lengths[0] - 2000)).toBeLessThan(80);
    expect(Math.abs(lengths[1] - 1000)).toBeLessThan(80);
    // The same part again is the same file; a reference that names no part, or no scene, is refused.
    expect(
      (
        await module.handlers['music.voicePart']({
          project: cutProject,
          reference: voicePartReference('scene-1', 0, 2000),
        })
      ).url,
    ).toBe(first.url);
    await expect(
      module.handlers['music.voicePart']({ project: cutProject, reference: 'studio-voice-part:x' }),
    ).rejects.toThrow(/does not name a part/);
    await expect(
      module.handlers['music.voicePart']({ project: cutProject, reference: voicePartReference('scene-9', 0, 1) }),
    ).rejects.toThrow(/No scene "scene-9"/);
  });
});
