import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addElement,
  addScene,
  buildFfmpegArgs,
  createProject,
  planFromProject,
  setSceneVoice,
  type Project,
} from '@common/composition';
import {
  FFMPEG,
  makeImage,
  makeTone,
  makeVideo,
  maxVolume,
  pixelAt,
  probe,
} from '../../fixtures/composition/make-media';

/** Renders a real composition with /usr/bin/ffmpeg and checks what came out. */
describe('compositor with real ffmpeg', () => {
  let dir: string;
  let project: Project;
  const files: Record<string, string> = {};

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compositor-'));
    files['red.mp4'] = makeVideo(join(dir, 'red.mp4'), { colour: 'red', width: 160, height: 120, seconds: 0.4 });
    files['blue.png'] = makeImage(join(dir, 'blue.png'), { colour: 'blue', width: 50, height: 50 });
    files['voice.wav'] = makeTone(join(dir, 'voice.wav'), { seconds: 0.5 });

    // 320x180 frame, green background. Scene 1 (1 s): a red video (0.4 s long: its last frame must be
    // held) in the left half, a blue image above it partly overlapping; voice for 0.5 s, then silence.
    // Scene 2 (0.6 s): only the blue image at the bottom-right, no voice.
    project = createProject({
      id: 'p',
      kind: 'avatar-video',
      output: { width: 320, height: 180 },
      background: '#00ff00',
    });
    project = addElement(project, 'scene-1', {
      id: 'red',
      type: 'video',
      url: 'https://m/red.mp4',
      x: 0,
      y: 0,
      width: 160,
      height: 180,
    });
    project = addElement(project, 'scene-1', {
      id: 'blue',
      type: 'image',
      url: 'https://m/blue.png',
      x: 120,
      y: 60,
      width: 80,
      height: 90,
    });
    project = setSceneVoice(project, 'scene-1', { kind: 'url', url: 'https://m/voice.wav' });
    project = { ...project, scenes: [{ ...project.scenes[0], durationMs: 1000 }] };
    project = addScene(project, { id: 'two', durationMs: 600 });
    project = addElement(project, 'two', {
      id: 'blue2',
      type: 'image',
      url: 'https://m/blue.png',
      x: 240,
      y: 90,
      width: 80,
      height: 90,
    });
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('renders size, duration, layout and sound as planned', () => {
    const plan = planFromProject(project, (r) => (r.url ? files[r.url.split('/').pop() ?? ''] : null));
    const out = join(dir, 'out.mp4.part');
    const command = buildFfmpegArgs(plan, { outputPath: out, quality: 'draft' });
    const run = spawnSync(FFMPEG, command.args, { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);

    const info = probe(out);
    expect([info.width, info.height]).toEqual([320, 180]);
    expect(info.seconds).toBeGreaterThan(1.55);
    expect(info.seconds).toBeLessThan(1.7);
    expect(info.hasAudio).toBe(true);
    expect(info.audioSeconds).toBeGreaterThan(1.55);

    const close = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]) < 40);
    // Scene 1 at 0.8 s, after the red clip ended: red still held in the left half.
    expect(close(pixelAt(out, 0.8, 40, 150), [255, 0, 0])).toBe(true);
    // Blue image box: 80x90 at (120, 60), drawn above the red (layer order).
    expect(close(pixelAt(out, 0.8, 130, 100), [0, 0, 255])).toBe(true);
    expect(close(pixelAt(out, 0.8, 199, 149), [0, 0, 255])).toBe(true);
    // Background outside every box.
    expect(close(pixelAt(out, 0.8, 300, 20), [0, 255, 0])).toBe(true);
    // Scene 2: no red any more; blue at the bottom-right.
    expect(close(pixelAt(out, 1.3, 40, 150), [0, 255, 0])).toBe(true);
    expect(close(pixelAt(out, 1.3, 300, 170), [0, 0, 255])).toBe(true);

    // The voice sounds in scene 1, then silence (padded), and scene 2 is silent.
    expect(maxVolume(out, 0.05, 0.4)).toBeGreaterThan(-30);
    expect(maxVolume(out, 0.7, 0.95)).toBeLessThan(-60);
    expect(maxVolume(out, 1.1, 1.5)).toBeLessThan(-60);
  });

  it('renders a low-resolution preview at the output aspect', () => {
    const plan = planFromProject(project, (r) => (r.url ? files[r.url.split('/').pop() ?? ''] : null));
    const out = join(dir, 'preview.mp4');
    const command = buildFfmpegArgs(plan, { outputPath: out, quality: 'preview', width: 160 });
    expect(spawnSync(FFMPEG, command.args).status).toBe(0);
    const info = probe(out);
    expect([info.width, info.height]).toEqual([160, 90]);
    expect(Math.abs(info.seconds - 1.6)).toBeLessThan(0.1);
  });
});
