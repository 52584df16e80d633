import { createServer, type Server } from 'node:http';
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addElement, addScene, createProject, setSceneVoice, type Project } from '@common/composition';
import { createMediaToolkit, type MediaToolkit } from '../../../electron/services/media/toolkit';
import { PreviewWarmer } from '../../../electron/services/media/preview-warmer';
import { cancelledRender } from './cancel-render';
import { makeImage, makeTone, makeVideo, pixelAt, probe } from '../../fixtures/composition/make-media';

const onPath = { resolve: { env: { PATH: '/usr/bin' }, loadPackagedFfmpeg: async () => null } };

describe('PreviewRenderer with real ffmpeg', () => {
  let dir: string;
  let server: Server;
  let base: string;
  const hits = new Map<string, number>();
  let toolkit: MediaToolkit;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'preview-'));
    const media = join(dir, 'served');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(media);
    makeVideo(join(media, 'big.mp4'), { colour: 'red', width: 1280, height: 720, seconds: 1 });
    makeImage(join(media, 'logo.png'), { colour: 'blue', width: 40, height: 40 });
    makeTone(join(media, 'voice.wav'), { seconds: 1 });
    writeFileSync(join(media, 'notes.mp4'), 'this is not a video');
    server = createServer((req, res) => {
      const name = basename((req.url ?? '').split('?')[0]);
      hits.set(name, (hits.get(name) ?? 0) + 1);
      const file = join(media, name);
      if (!existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-length': statSync(file).size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    toolkit = createMediaToolkit({ dataDir: join(dir, 'data'), ...onPath });
  });

  afterAll(async () => {
    await toolkit.dispose();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  function project(): Project {
    let p = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p', background: '#00ff00' });
    p = addElement(p, 'scene-1', {
      id: 'clip',
      type: 'video',
      url: `${base}/big.mp4`,
      x: 0,
      y: 0,
      width: 640,
      height: 360,
    });
    p = addElement(p, 'scene-1', {
      id: 'logo',
      type: 'image',
      url: `${base}/logo.png?sig=secret`,
      x: 1000,
      y: 500,
      width: 128,
      height: 72,
    });
    p = setSceneVoice(p, 'scene-1', { kind: 'url', url: `${base}/voice.wav` });
    p = { ...p, scenes: [{ ...p.scenes[0], durationMs: 1200 }] };
    return addScene(p, { id: 'second', durationMs: 400 });
  }

  it('renders a low-resolution preview, downloading and proxying each input once', async () => {
    const reports: number[] = [];
    const out = join(dir, 'a.mp4');
    const result = await toolkit.renderer.render(project(), {
      quality: 'preview',
      outputPath: out,
      onProgress: (p) => reports.push(p.fraction),
    });
    expect(result).toMatchObject({ path: out, width: 640, height: 360, durationMs: 1600 });
    expect(result.notes).toEqual([]);
    expect(reports.at(-1)).toBe(1);
    const info = probe(out);
    expect([info.width, info.height, info.hasAudio]).toEqual([640, 360, true]);
    expect(existsSync(`${out}.part`)).toBe(false);
    // The clip's box is the top-left quarter, the logo near the bottom-right.
    expect(pixelAt(out, 0.5, 100, 100)[0]).toBeGreaterThan(200);
    expect(pixelAt(out, 0.5, 520, 270)[2]).toBeGreaterThan(200);

    const proxies = readdirSync(join(dir, 'data/media/proxies'));
    expect(proxies).toHaveLength(1);
    const proxyInode = statSync(join(dir, 'data/media/proxies', proxies[0])).ino;
    await toolkit.renderer.render(project(), { quality: 'preview', outputPath: join(dir, 'b.mp4') });
    expect([hits.get('big.mp4'), hits.get('logo.png'), hits.get('voice.wav')]).toEqual([1, 1, 1]);
    expect(readdirSync(join(dir, 'data/media/proxies'))).toEqual(proxies);
    // Same file, not re-made (a new proxy would be a new file renamed into place).
    expect(statSync(join(dir, 'data/media/proxies', proxies[0])).ino).toBe(proxyInode);
  });

  it('renders a full-resolution draft from the original media', async () => {
    const out = join(dir, 'draft.mp4');
    const result = await toolkit.renderer.render(project(), { quality: 'draft', outputPath: out });
    expect([result.width, result.height]).toEqual([1280, 720]);
    expect(probe(out)).toMatchObject({ width: 1280, height: 720 });
  });

  it('makes a poster frame at a time on the timeline', async () => {
    const out = join(dir, 'poster.jpg');
    await toolkit.renderer.poster(project(), 1400, { outputPath: out });
    expect(probe(out)).toMatchObject({ width: 640, height: 360 });
    expect(pixelAt(out, 0, 100, 100)[1]).toBeGreaterThan(200); // scene 2: background only
    await toolkit.renderer.poster(project(), 300, { outputPath: out });
    expect(pixelAt(out, 0, 100, 100)[0]).toBeGreaterThan(200); // scene 1: the red clip
  });

  it('names the scene and element of an unreachable link, leaving no file behind', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    let p = project();
    p = addElement(p, 'second', {
      id: 'gone',
      type: 'image',
      url: `http://127.0.0.1:${port}/gone.png`,
      x: 0,
      y: 0,
      width: 256,
      height: 144,
    });
    const out = join(dir, 'bad.mp4');
    await expect(toolkit.renderer.render(p, { quality: 'preview', outputPath: out })).rejects.toThrow(
      `Scene 2 (second), element gone: cannot download http://127.0.0.1:${port}/gone.png: unreachable (ECONNREFUSED)`,
    );
    const missing = addElement(project(), 'second', {
      id: 'nf',
      type: 'image',
      url: `${base}/missing.png`,
      x: 0,
      y: 0,
      width: 256,
      height: 144,
    });
    await expect(toolkit.renderer.render(missing, { quality: 'preview', outputPath: out })).rejects.toThrow(
      /Scene 2 \(second\), element nf: cannot download .*missing\.png \(HTTP 404\)/,
    );
    expect(existsSync(out) || existsSync(`${out}.part`)).toBe(false);
  });

  it('names the element whose file is not media, and hides signed query strings', async () => {
    const p = addElement(project(), 'second', {
      id: 'fake',
      type: 'video',
      url: `${base}/notes.mp4?token=abc`,
      x: 0,
      y: 0,
      width: 256,
      height: 144,
    });
    const error = await toolkit.renderer
      .render(p, { quality: 'preview', outputPath: join(dir, 'c.mp4') })
      .catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `Scene 2 (second), element fake: ${base}/notes.mp4 is not a media file ffmpeg can read`,
    );
  });

  it('says where it looked when ffmpeg is missing', async () => {
    const none = createMediaToolkit({
      dataDir: join(dir, 'none'),
      resolve: {
        env: { PATH: '/nonexistent' },
        loadPackagedFfmpeg: async () => null,
        loadInstallerBinary: async () => null,
      },
    });
    const error = await none.renderer
      .render(project(), { quality: 'preview', outputPath: join(dir, 'd.mp4') })
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^Scene 1 \(scene-1\), element clip: ffprobe was not found\. Looked in: Settings: not set; FFPROBE_BIN: not set; ffmpeg-static: not set; PATH: not set/,
    );
  });

  it('cancels: kills ffmpeg and removes the partial file', async () => {
    const long = createProject({ id: 'long', kind: 'avatar-video', output: '16:9-1080p' });
    const p = { ...long, scenes: [{ ...long.scenes[0], durationMs: 120_000 }] };
    const out = join(dir, 'long.mp4');
    expect(await cancelledRender(toolkit.renderer, p, out)).toMatchObject({ name: 'AbortError' });
    expect(toolkit.runner.running).toBe(0);
    expect(existsSync(`${out}.part`)).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  // Fails when the signature leaves out the project's settings or the inputs' modification times
  // (mutations: hash only the input paths; drop the stat of each input).
  it('reuses an unchanged preview, and renders again after an edit or a changed media file', async () => {
    const outs = ['same-1', 'same-2', 'edited', 'touched'].map((n) => join(dir, `${n}.mp4`));
    const shade = (): Project => ({ ...project(), background: '#00fe00' });
    const first = await toolkit.renderer.render(shade(), { quality: 'preview', outputPath: outs[0] });
    expect(first.reused).toBeUndefined();
    const again = await toolkit.renderer.render(shade(), { quality: 'preview', outputPath: outs[1] });
    expect(again.reused).toBe(true);
    expect(statSync(outs[1]).size).toBe(statSync(outs[0]).size);
    const edited = await toolkit.renderer.render(
      { ...project(), background: '#0000ff' },
      { quality: 'preview', outputPath: outs[2] },
    );
    expect(edited.reused).toBeUndefined();
    expect(pixelAt(outs[2], 0.5, 630, 10)[2]).toBeGreaterThan(200);
    // The same project over a media file that changed on disk is not the same render.
    const cached = await toolkit.cache.localPath(`${base}/voice.wav`);
    const later = new Date(Date.now() + 5_000);
    utimesSync(cached, later, later);
    const touched = await toolkit.renderer.render(shade(), { quality: 'preview', outputPath: outs[3] });
    expect(touched.reused).toBeUndefined();
  });

  // Fails when the warmer keeps working on media removed from the project (mutation: skip the abort
  // loop in warm()), or does not use low priority proxies (the preview then has to make them).
  it('prepares media in the background and stops on media that left the project', async () => {
    const local = createMediaToolkit({ dataDir: join(dir, 'warm-data'), ...onPath });
    try {
      const warmer = new PreviewWarmer(local.renderer);
      expect(warmer.warm(project())).toEqual({ inputs: 3, working: 3 });
      // The clip leaves the project while it is still being prepared.
      const withoutClip = {
        ...project(),
        scenes: project().scenes.map((s) => ({ ...s, elements: s.elements.filter((e) => e.id !== 'clip') })),
      };
      expect(warmer.warm(withoutClip).inputs).toBe(2);
      await warmer.idle();
      expect(
        existsSync(join(dir, 'warm-data/media/proxies'))
          ? readdirSync(join(dir, 'warm-data/media/proxies')).filter((n) => n.endsWith('.mp4'))
          : [],
      ).toEqual([]);
      warmer.warm(project());
      await warmer.idle();
      expect(readdirSync(join(dir, 'warm-data/media/proxies')).filter((n) => n.endsWith('.mp4'))).toHaveLength(1);
      // Everything is ready: the preview makes no proxy and fetches nothing.
      const before = { ...Object.fromEntries(hits) };
      await local.renderer.render(project(), { quality: 'preview', outputPath: join(dir, 'after-warm.mp4') });
      expect(Object.fromEntries(hits)).toEqual(before);
      expect(readdirSync(join(dir, 'warm-data/media/proxies')).filter((n) => n.endsWith('.mp4'))).toHaveLength(1);
    } finally {
      await local.dispose();
    }
  });
});
