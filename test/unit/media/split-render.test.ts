// A render of several scenes split across cores: the parts, their join, and what happens when one
// part fails or the user cancels.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addElement, addScene, createProject, setSceneVoice, type Project } from '@common/composition';
import { buildSegmentedArgs, splitScenes } from '../../../electron/common/composition/segmented-args';
import { planFromProject } from '../../../electron/common/composition/render-plan';
import { createMediaToolkit, type MediaToolkit } from '../../../electron/services/media/toolkit';
import { PreviewRenderer } from '../../../electron/services/media/preview-renderer';
import { ProcessRunner, type ChildLike } from '../../../electron/services/media/process';
import { runSplitRender, SplitPartError } from '../../../electron/services/media/split-render';
import { cancelledRender } from './cancel-render';
import { FFPROBE, makeImage, makeTone, makeVideo, pixelAt, probe } from '../../fixtures/composition/make-media';
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { EventEmitter } from 'node:events';

describe('splitting scenes into parts', () => {
  it('keeps scenes in order and makes the longest part as short as it can be', () => {
    expect(splitScenes([18_000, 12_000], 2)).toEqual([[0], [1]]);
    expect(splitScenes([5, 5, 5, 5], 2)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(splitScenes([10, 1, 1, 1, 1, 1, 1], 2)).toEqual([[0], [1, 2, 3, 4, 5, 6]]);
    expect(splitScenes([3, 3, 3], 4)).toEqual([[0], [1], [2]]);
    expect(splitScenes([3, 3, 3], 1)).toEqual([[0, 1, 2]]);
  });

  it('is not split for one scene or one core', () => {
    const one = planFromProject(createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p' }), () => null);
    expect(buildSegmentedArgs(one, { outputPath: '/out/a.mp4.part', quality: 'preview', groups: 4 })).toBeNull();
    const two = planFromProject(
      addScene(createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p' }), { id: 's2' }),
      () => null,
    );
    expect(buildSegmentedArgs(two, { outputPath: '/out/a.mp4.part', quality: 'preview', groups: 1 })).toBeNull();
  });

  it('gives the picture parts no sound and the sound part no picture, and quotes odd paths in the join list', () => {
    let p = addScene(createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p' }), { id: 's2' });
    p = setSceneVoice(p, 'scene-1', { kind: 'url', url: '/media/voice.wav' });
    p = addElement(p, 's2', { type: 'image', url: '/media/logo.png', x: 0, y: 0, width: 100, height: 100 });
    const plan = planFromProject(p, (request) =>
      request.url ? { path: request.url, still: request.url.endsWith('.png') } : null,
    );
    const split = buildSegmentedArgs(plan, { outputPath: "/out/it's.mp4.part", quality: 'preview', groups: 2 });
    expect(split?.videos).toHaveLength(2);
    for (const video of split?.videos ?? []) {
      expect(video.args).not.toContain('/media/voice.wav');
      expect(video.args).not.toContain('[aout]');
    }
    expect(split?.videos[1].args).toContain('/media/logo.png');
    expect(split?.audio.args).toContain('/media/voice.wav');
    expect(split?.audio.args).not.toContain('/media/logo.png');
    expect(split?.listText).toBe(
      "file '/out/it'\\''s.mp4.part.picture-0.mp4'\nfile '/out/it'\\''s.mp4.part.picture-1.mp4'\n",
    );
    expect(split?.join.args.at(-1)).toBe("/out/it's.mp4.part");
  });
});

/** A runner whose ffmpeg writes its output file, fails for commands naming `failing`, and otherwise runs until killed. */
function fakeRunner(failing: string): ProcessRunner {
  return new ProcessRunner(((_file: string, args: string[]) => {
    const child = new EventEmitter() as EventEmitter & ChildLike;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    Object.assign(child, { stdout, stderr, pid: undefined });
    writeFileSync(args.at(-1) as string, 'part');
    const end = (code: number | null, signal: NodeJS.Signals | null) => {
      stdout.end();
      stderr.end();
      setImmediate(() => child.emit('close', code, signal));
    };
    (child as unknown as { kill(): boolean }).kill = () => (end(null, 'SIGKILL'), true);
    if (args.some((arg) => arg.includes(failing))) {
      setTimeout(() => {
        stderr.write(`${failing}: Invalid data found when processing input\n`);
        end(1, null);
      }, 20);
    }
    return child;
  }) as never);
}

describe('running a split render', () => {
  let dir: string;
  let toolkit: MediaToolkit;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-render-'));
    mkdirSync(join(dir, 'src'));
    makeVideo(join(dir, 'src/red.mp4'), { colour: 'red', width: 320, height: 180, seconds: 2 });
    makeImage(join(dir, 'src/blue.png'), { colour: 'blue', width: 64, height: 64 });
    makeTone(join(dir, 'src/voice.wav'), { seconds: 1 });
    toolkit = createMediaToolkit({ dataDir: join(dir, 'data') });
  });
  afterAll(async () => {
    await toolkit.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function renderer(parallelism: number): PreviewRenderer {
    return new PreviewRenderer({
      runner: toolkit.runner,
      ffmpeg: () => toolkit.binary('ffmpeg'),
      cache: toolkit.cache,
      prober: toolkit.prober,
      proxies: toolkit.proxies,
      parallelism,
    });
  }

  function threeScenes(lengthMs = 1000): Project {
    let p = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p', background: '#00ff00' });
    p = addElement(p, 'scene-1', {
      type: 'video',
      url: join(dir, 'src/red.mp4'),
      x: 0,
      y: 0,
      width: 1280,
      height: 720,
    });
    p = setSceneVoice(p, 'scene-1', { kind: 'url', url: join(dir, 'src/voice.wav') });
    p = addScene(p, { id: 'second', durationMs: lengthMs });
    p = addScene(p, { id: 'third', durationMs: lengthMs });
    p = addElement(p, 'third', { type: 'image', url: join(dir, 'src/blue.png'), x: 0, y: 0, width: 1280, height: 720 });
    return { ...p, scenes: [{ ...p.scenes[0], durationMs: lengthMs }, ...p.scenes.slice(1)] };
  }

  // Fails when a part is left out of the join, cut short, or the sound is not joined.
  it('makes the same film as the single command: same length, frames, sound and pictures', async () => {
    const outputs = [] as string[];
    for (const parallelism of [1, 3]) {
      const out = join(dir, `out-${parallelism}`, 'film.mp4');
      await renderer(parallelism).render(threeScenes(), { quality: 'preview', outputPath: out });
      outputs.push(out);
      // Nothing but the film is left in its folder.
      expect(readdirSync(join(dir, `out-${parallelism}`))).toEqual(['film.mp4']);
    }
    const frames = (path: string) =>
      spawnSync(
        FFPROBE,
        [
          '-v',
          'error',
          '-count_frames',
          '-select_streams',
          'v',
          '-show_entries',
          'stream=nb_read_frames',
          '-of',
          'csv=p=0',
          path,
        ],
        { encoding: 'utf8' },
      ).stdout.trim();
    const [single, split] = outputs;
    expect(frames(split)).toBe(frames(single));
    expect(frames(split)).toBe('75');
    expect(probe(split)).toMatchObject({ width: 640, height: 360, hasAudio: true });
    expect(Math.abs(probe(split).seconds - probe(single).seconds)).toBeLessThan(0.05);
    for (const at of [0.5, 1.5, 2.5]) expect(pixelAt(split, at, 320, 180)).toEqual(pixelAt(single, at, 320, 180));
    expect(pixelAt(split, 0.5, 320, 180)[0]).toBeGreaterThan(200); // red clip
    expect(pixelAt(split, 1.5, 320, 180)[1]).toBeGreaterThan(200); // green background
    expect(pixelAt(split, 2.5, 320, 180)[2]).toBeGreaterThan(200); // blue picture
  });

  // Fails when the parts are not all stopped (mutation: no stop.abort on a failure) or their files
  // are left behind (no rm in the finally).
  it('a failing part stops the others, leaves no file, and says which command failed', async () => {
    const folder = join(dir, 'failing');
    mkdirSync(folder);
    const plan = planFromProject(threeScenes(), (request) =>
      request.url ? { path: request.url, still: request.url.endsWith('.png') } : null,
    );
    const split = buildSegmentedArgs(plan, {
      outputPath: join(folder, 'film.mp4.part'),
      quality: 'preview',
      groups: 2,
    });
    if (!split) throw new Error('expected a split render');
    const runner = fakeRunner('picture-1');
    const error = await runSplitRender(runner, 'ffmpeg', split, 3000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SplitPartError);
    expect((error as SplitPartError).command.args.at(-1)).toBe(split.parts[1]);
    expect(runner.running).toBe(0);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('cancels every part and removes every file', async () => {
    const out = join(dir, 'cancelled', 'film.mp4');
    expect(await cancelledRender(renderer(2), threeScenes(60_000), out)).toMatchObject({ name: 'AbortError' });
    expect(toolkit.runner.running).toBe(0);
    expect(existsSync(join(dir, 'cancelled')) ? readdirSync(join(dir, 'cancelled')) : []).toEqual([]);
  });
});
