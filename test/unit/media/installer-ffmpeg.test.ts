import { createServer, type Server } from 'node:http';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addElement, addScene, createProject, setSceneVoice, type Project } from '@common/composition';
import { resolveMediaBinaries } from '../../../electron/services/system/binaries';
import { createMediaToolkit, type MediaToolkit } from '../../../electron/services/media/toolkit';
import { makeImage, makeTone, makeVideo, pixelAt, probe } from '../../fixtures/composition/make-media';

// A machine with no ffmpeg anywhere: nothing in Settings or the environment, no ffmpeg-static, an empty
// PATH. What is left is the binaries the npm installer packages ship, and the compositor must work with them.
const bare = { env: { PATH: '' }, loadPackagedFfmpeg: async () => null };

describe('the compositor with the ffmpeg and ffprobe shipped by npm packages', () => {
  let dir: string;
  let server: Server;
  let base: string;
  let toolkit: MediaToolkit;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'installer-ffmpeg-'));
    const media = join(dir, 'served');
    mkdirSync(media);
    makeVideo(join(media, 'clip.mp4'), { colour: 'red', width: 640, height: 360, seconds: 1 });
    makeImage(join(media, 'logo.png'), { colour: 'blue', width: 40, height: 40 });
    makeTone(join(media, 'voice.wav'), { seconds: 1 });
    server = createServer((req, res) => {
      const file = join(media, basename((req.url ?? '').split('?')[0]));
      if (!existsSync(file)) return void res.writeHead(404).end();
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    toolkit = createMediaToolkit({ dataDir: join(dir, 'data'), resolve: bare });
  });

  afterAll(async () => {
    await toolkit?.dispose();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  function project(): Project {
    let p = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p', background: '#00ff00' });
    p = addElement(p, 'scene-1', {
      id: 'clip',
      type: 'video',
      url: `${base}/clip.mp4`,
      x: 0,
      y: 0,
      width: 640,
      height: 360,
    });
    p = addElement(p, 'scene-1', {
      id: 'logo',
      type: 'image',
      url: `${base}/logo.png`,
      x: 1000,
      y: 500,
      width: 128,
      height: 72,
    });
    p = setSceneVoice(p, 'scene-1', { kind: 'url', url: `${base}/voice.wav` });
    p = { ...p, scenes: [{ ...p.scenes[0], durationMs: 1000 }] };
    return addScene(p, { id: 'second', durationMs: 400 });
  }

  it('finds them when nothing else gives an ffmpeg, after checking what ffmpeg can do', async () => {
    const [ffmpeg, ffprobe] = await resolveMediaBinaries(bare);
    expect(ffmpeg).toMatchObject({ source: 'installer', error: null });
    expect(ffmpeg.path).toContain('@ffmpeg-installer');
    expect(ffprobe).toMatchObject({ source: 'installer', error: null });
    expect(ffprobe.path).toContain('@ffprobe-installer');
  });

  it('renders a two-scene preview and a draft with them (proxies, overlay, voice, concat)', async () => {
    const out = join(dir, 'preview.mp4');
    const result = await toolkit.renderer.render(project(), { quality: 'preview', outputPath: out });
    expect(result).toMatchObject({ width: 640, height: 360, durationMs: 1400, notes: [] });
    expect(probe(out)).toMatchObject({ width: 640, height: 360, hasAudio: true });
    expect(pixelAt(out, 0.5, 100, 100)[0]).toBeGreaterThan(200); // the red clip, top-left quarter
    expect(pixelAt(out, 0.5, 520, 270)[2]).toBeGreaterThan(200); // the blue logo, bottom-right
    expect(pixelAt(out, 1.2, 100, 100)[1]).toBeGreaterThan(200); // scene 2: the green background

    const draft = join(dir, 'draft.mp4');
    await toolkit.renderer.render(project(), { quality: 'draft', outputPath: draft });
    expect(probe(draft)).toMatchObject({ width: 1280, height: 720, hasAudio: true });
  });
});
