// Local preview speed, measured. A 30 s, two-scene project with four layers per scene (a full-frame
// background picture, a 1080p video, a looping portrait avatar video, a logo) and a voice per scene,
// from source media generated with ffmpeg's lavfi at run time. Reports the preview's speed as a
// multiple of real time, and its time as a ratio to a hand-written single-pass ffmpeg command that
// produces the same composition at the same size and settings, run here on the same inputs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addElement, addScene, createProject, setSceneVoice, type Project } from '../../electron/common/composition';
import { createMediaToolkit } from '../../electron/services/media/toolkit';
import { PreviewWarmer } from '../../electron/services/media/preview-warmer';
import { FFMPEG, makeImage, makeTone, makeVideo, probe } from '../fixtures/composition/make-media';

const SCENES = [18_000, 12_000];
const TOTAL_S = (SCENES[0] + SCENES[1]) / 1000;
const ROUNDS = 5;

interface Sources {
  background: string;
  videoA: string;
  videoB: string;
  avatar: string;
  logo: string;
  voice1: string;
  voice2: string;
}

function makeSources(dir: string): Sources {
  return {
    background: makeImage(join(dir, 'background.png'), { colour: 'navy', width: 1920, height: 1080 }),
    videoA: makeVideo(join(dir, 'video-a.mp4'), {
      colour: 'testsrc2',
      width: 1920,
      height: 1080,
      seconds: 18,
      fps: 30,
    }),
    videoB: makeVideo(join(dir, 'video-b.mp4'), {
      colour: 'testsrc2',
      width: 1920,
      height: 1080,
      seconds: 12,
      fps: 30,
    }),
    avatar: makeVideo(join(dir, 'avatar.mp4'), { colour: 'testsrc2', width: 720, height: 1280, seconds: 6, fps: 25 }),
    logo: makeImage(join(dir, 'logo.png'), { colour: 'orange', width: 400, height: 400 }),
    voice1: makeTone(join(dir, 'voice-1.wav'), { seconds: 16, frequency: 300 }),
    voice2: makeTone(join(dir, 'voice-2.wav'), { seconds: 11, frequency: 500 }),
  };
}

/** The fixture project on a 1920×1080 frame; the layout the hand-written command reproduces. */
function fixtureProject(src: Sources): Project {
  let p = createProject({ id: 'bench', kind: 'avatar-video', output: '16:9-1080p', background: '#101010' });
  p = addScene(p, { id: 'scene-2', durationMs: SCENES[1] });
  p = { ...p, scenes: [{ ...p.scenes[0], durationMs: SCENES[0] }, p.scenes[1]] };
  const layers = (scene: string, video: string): void => {
    p = addElement(p, scene, { type: 'image', url: src.background, x: 0, y: 0, width: 1920, height: 1080 });
    p = addElement(p, scene, { type: 'video', url: video, x: 96, y: 216, width: 960, height: 540 });
    p = addElement(p, scene, {
      type: 'avatar',
      avatarId: 'bench',
      avatarFrom: 3,
      url: src.avatar,
      x: 1248,
      y: 108,
      width: 576,
      height: 864,
    });
    p = addElement(p, scene, { type: 'image', url: src.logo, x: 1728, y: 36, width: 144, height: 143.96 });
  };
  layers('scene-1', src.videoA);
  layers('scene-2', src.videoB);
  p = setSceneVoice(p, 'scene-1', { kind: 'url', url: src.voice1 });
  p = setSceneVoice(p, 'scene-2', { kind: 'url', url: src.voice2 });
  return p;
}

/**
 * What a person would type for the same 640×360 preview: every input scaled to its box, overlaid in
 * order, each scene cut to its length, voices padded, scenes concatenated, same encoder settings.
 */
function handWritten(src: Sources, out: string): string[] {
  const graph = [
    'color=c=0x101010:s=640x360:r=25:d=18[bg0]',
    '[0:v]scale=640:360[i0]',
    '[bg0][i0]overlay=0:0[a0]',
    '[1:v]scale=320:180[v0]',
    '[a0][v0]overlay=32:72[b0]',
    '[2:v]scale=192:288[av0]',
    '[b0][av0]overlay=416:36[c0]',
    '[3:v]scale=48:48[l0]',
    '[c0][l0]overlay=576:12[out0]',
    '[4:a]aresample=48000,aformat=channel_layouts=stereo,apad,atrim=0:18[au0]',
    'color=c=0x101010:s=640x360:r=25:d=12[bg1]',
    '[5:v]scale=640:360[i1]',
    '[bg1][i1]overlay=0:0[a1]',
    '[6:v]scale=320:180[v1]',
    '[a1][v1]overlay=32:72[b1]',
    '[7:v]scale=192:288[av1]',
    '[b1][av1]overlay=416:36[c1]',
    '[8:v]scale=48:48[l1]',
    '[c1][l1]overlay=576:12[out1]',
    '[9:a]aresample=48000,aformat=channel_layouts=stereo,apad,atrim=0:12[au1]',
    '[out0][au0][out1][au1]concat=n=2:v=1:a=1[v][a]',
  ].join(';');
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    src.background,
    '-t',
    '18',
    '-i',
    src.videoA,
    '-stream_loop',
    '-1',
    '-t',
    '18',
    '-i',
    src.avatar,
    '-i',
    src.logo,
    '-i',
    src.voice1,
    '-i',
    src.background,
    '-t',
    '12',
    '-i',
    src.videoB,
    '-stream_loop',
    '-1',
    '-t',
    '12',
    '-i',
    src.avatar,
    '-i',
    src.logo,
    '-i',
    src.voice2,
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ar',
    '48000',
    '-t',
    '30',
    out,
  ];
}

function timeSync(run: () => void): number {
  const start = performance.now();
  run();
  return (performance.now() - start) / 1000;
}

async function timeAsync(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) / 1000;
}

function ffmpeg(args: string[]): void {
  const result = spawnSync(FFMPEG, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`hand-written ffmpeg failed: ${result.stderr}`);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number): string => n.toFixed(2);

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'preview-bench-'));
  try {
    console.log('generating 30 s of source media (1080p videos, portrait avatar, pictures, voices)...');
    mkdirSync(join(dir, 'src'));
    const src = makeSources(join(dir, 'src'));
    const project = fixtureProject(src);
    const toolkit = createMediaToolkit({ dataDir: join(dir, 'data') });
    mkdirSync(join(dir, 'out'));

    // Cold: every input probed and the large videos proxied, then rendered, as before any warming.
    const coldToolkit = createMediaToolkit({ dataDir: join(dir, 'cold-data') });
    const cold = await timeAsync(() =>
      coldToolkit.renderer.render(project, { quality: 'preview', outputPath: join(dir, 'out/cold.mp4') }),
    );
    await coldToolkit.dispose();

    // What the editor does: media are prepared in the background as they are added, while the user
    // goes on editing; then the first Preview.
    const warmer = new PreviewWarmer(toolkit.renderer);
    const background = await timeAsync(async () => {
      warmer.warm(project);
      await warmer.idle();
    });
    const first = await timeAsync(() =>
      toolkit.renderer.render(project, { quality: 'preview', outputPath: join(dir, 'out/first.mp4') }),
    );
    const repeated = await timeAsync(() =>
      toolkit.renderer.render(project, { quality: 'preview', outputPath: join(dir, 'out/repeated.mp4') }),
    );
    const proxies = readdirSync(join(dir, 'data/media/proxies')).map((name) => join(dir, 'data/media/proxies', name));
    for (const name of ['cold', 'first', 'repeated']) {
      const check = probe(join(dir, `out/${name}.mp4`));
      if (check.width !== 640 || check.height !== 360 || Math.abs(check.seconds - TOTAL_S) > 0.2)
        throw new Error(`unexpected ${name} preview: ${JSON.stringify(check)}`);
    }

    // The same hand-written graph on the proxies the preview used, for the cost of the studio's own
    // graph and work (probing, planning) with decoding held equal.
    // Drawn sizes at 640x360: the clips at 320x180, the avatar at 192x288.
    const proxyOf = async (source: string, drawnLongSide: number): Promise<string> =>
      toolkit.proxies.proxyFor(source, await toolkit.prober.probe(source), { drawnLongSide });
    const onProxies = {
      ...src,
      videoA: await proxyOf(src.videoA, 320),
      videoB: await proxyOf(src.videoB, 320),
      avatar: await proxyOf(src.avatar, 288),
    };
    if (readdirSync(join(dir, 'data/media/proxies')).length !== proxies.length)
      throw new Error("the baseline should reuse the preview's proxies");
    if (onProxies.videoA === src.videoA) throw new Error('expected the 1080p videos to have proxies');

    // Edited projects (another background shade each round, so nothing is reused), interleaved with
    // the hand-written passes so load changes touch both alike.
    const edited: number[] = [];
    const handOriginal: number[] = [];
    const handProxies: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const changed = { ...project, background: `#10101${round + 1}` };
      edited.push(
        await timeAsync(() =>
          toolkit.renderer.render(changed, { quality: 'preview', outputPath: join(dir, `out/edited-${round}.mp4`) }),
        ),
      );
      handProxies.push(timeSync(() => ffmpeg(handWritten(onProxies, join(dir, `out/hand-proxies-${round}.mp4`)))));
      handOriginal.push(timeSync(() => ffmpeg(handWritten(src, join(dir, `out/hand-${round}.mp4`)))));
    }
    const e = median(edited);
    const ho = median(handOriginal);
    const hp = median(handProxies);
    const aim = (label: string, ok: boolean, figure: string): void =>
      console.log(`aim ${label}: ${ok ? 'met' : 'NOT met'} (${figure})`);
    console.log(
      `machine load average (1 min) ${loadavg()[0].toFixed(1)} on ${cpus().length} cores: absolute speeds vary with it, the ratios much less`,
    );
    console.log(
      `composition: ${TOTAL_S} s, 2 scenes x 4 layers (2 videos 1920x1080, looping 720x1280 avatar, 2 pictures) + voices; preview 640x360`,
    );
    console.log(
      `studio preview with nothing prepared (probe + make ${proxies.length} proxies + render): ${fmt(cold)} s = ${fmt(TOTAL_S / cold)}x real time`,
    );
    console.log(`background preparation while editing (low priority, before Preview is pressed): ${fmt(background)} s`);
    console.log(`first preview after it:                     ${fmt(first)} s = ${fmt(TOTAL_S / first)}x real time`);
    console.log(
      `the same preview again (unchanged project):  ${fmt(repeated)} s = ${fmt(TOTAL_S / repeated)}x real time`,
    );
    console.log(`an edited project, proxies ready (median of ${ROUNDS}): ${fmt(e)} s = ${fmt(TOTAL_S / e)}x real time`);
    console.log(`hand-written single pass on the original sources:   ${fmt(ho)} s = ${fmt(TOTAL_S / ho)}x real time`);
    console.log(`hand-written single pass on the same proxies:       ${fmt(hp)} s = ${fmt(TOTAL_S / hp)}x real time`);
    aim('first preview >= 4x real time', TOTAL_S / first >= 4, `${fmt(TOTAL_S / first)}x`);
    aim('repeated preview >= 10x real time', TOTAL_S / repeated >= 10, `${fmt(TOTAL_S / repeated)}x`);
    aim('edited preview <= 1.0x the hand-written pass on the same proxies', e / hp <= 1, `${fmt(e / hp)}x`);
    console.log(
      `(ratio to the hand-written pass on the original sources: ${fmt(e / ho)}; with nothing prepared: ${fmt(cold / ho)})`,
    );
    await toolkit.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
