import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addElement,
  createProject,
  toTalkingAvatarBody,
  type PlacementConvention,
  type Project,
} from '@common/composition';
import type { RunningEmulator } from '../../../electron/emulator';
import { pixelAt } from '../../fixtures/composition/make-media';
import { SLOW, call, dataOf, ffmpeg, probe, sample, serveDir, start, until } from './harness';

/**
 * The sandbox reads offset and scale by the convention it is started with, and the studio writes a
 * project by the connection's convention: whichever the service uses, every element lands where the
 * canvas showed it, and the service's own example bodies fill the frame. A talking avatar lasts as long
 * as its sound, and only its first frames are looked at: a second of tone stands in for the 4 s sample
 * voice, so each render (one of them at 1920x1080) encodes a quarter of the frames.
 */
const CONVENTIONS: PlacementConvention[] = [
  { anchor: 'centre', scale: 'frame' },
  { anchor: 'centre', scale: 'element' },
  { anchor: 'top-left', scale: 'frame' },
  { anchor: 'top-left', scale: 'element' },
];

type Rgb = [number, number, number];
const isRed = ([r, g, b]: Rgb) => r > 190 && g < 70 && b < 70;
const isBlue = ([r, g, b]: Rgb) => r < 70 && g < 70 && b > 190;
const isGreen = ([r, g, b]: Rgb) => r < 70 && g > 100 && b < 70;

describe('placement in the sandbox', { timeout: 2 * SLOW }, () => {
  let dir: string;
  let host: Awaited<ReturnType<typeof serveDir>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'placement-'));
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:size=80x80', '-frames:v', '1', join(dir, 'red.png')]);
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:size=200x100', '-frames:v', '1', join(dir, 'blue.png')]);
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=green:size=64x36', '-frames:v', '1', join(dir, 'green.png')]);
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=1', join(dir, 'voice.mp3')]);
    host = await serveDir(dir);
  }, SLOW);
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function render(em: RunningEmulator, body: unknown): Promise<string> {
    const created = dataOf(await call(em, 'talkingAvatarCreate', body as Record<string, unknown>));
    const done = dataOf(
      await until(
        () => call(em, 'videoInfo', { video_model_id: created._id }),
        (r) => dataOf(r).video_status >= 3,
        // A render takes the sandbox up to half a minute on a busy 2-core machine: the guard leaves room for a saturated one.
        SLOW,
      ),
    );
    expect(done.video_status).toBe(3);
    const file = join(dir, `${created._id}.mp4`);
    await ffmpeg(['-i', String(done.video), '-c', 'copy', file]);
    return file;
  }

  for (const convention of CONVENTIONS) {
    it(`${convention.anchor}/${convention.scale}: each element lands on the box the canvas showed`, async () => {
      const em = await start({ placement: convention.anchor, scale: convention.scale });
      try {
        const avatarUrl = sample(em, 'avatar-SandboxAnna.mp4');
        const clip = await probe(avatarUrl);
        let p: Project = createProject({ id: 'p', kind: 'talking-avatar', output: { width: 320, height: 180 } });
        p = addElement(p, 'scene-1', {
          id: 'avatar',
          type: 'avatar',
          url: avatarUrl,
          avatarFrom: 3,
          x: 250,
          y: 10,
          width: 60,
          height: 60,
          mediaSize: { width: clip.width!, height: clip.height! },
        });
        p = addElement(p, 'scene-1', {
          id: 'red',
          type: 'image',
          url: `${host.url}/red.png`,
          x: 20,
          y: 30,
          width: 80,
          height: 60,
          mediaSize: { width: 80, height: 80 },
        });
        p = addElement(p, 'scene-1', {
          id: 'blue',
          type: 'image',
          url: `${host.url}/blue.png`,
          x: 150,
          y: 100,
          width: 100,
          height: 50,
          mediaSize: { width: 200, height: 100 },
        });
        p = addElement(p, 'scene-1', {
          id: 'voice',
          type: 'audio',
          url: `${host.url}/voice.mp3`,
          x: 0,
          y: 0,
          width: 0,
          height: 0,
        });
        const video = await render(em, toTalkingAvatarBody(p, { placement: convention }));

        const at = (x: number, y: number) => pixelAt(video, 0.3, x, y);
        // Inside each box, 3 px from every edge, and 3 px outside it.
        for (const [x, y] of [
          [23, 33],
          [96, 33],
          [23, 86],
          [96, 86],
          [60, 60],
        ])
          expect(isRed(at(x, y)), `red at ${x},${y}`).toBe(true);
        for (const [x, y] of [
          [16, 60],
          [104, 60],
          [60, 26],
          [60, 94],
        ])
          expect(isRed(at(x, y)), `not red at ${x},${y}`).toBe(false);
        for (const [x, y] of [
          [153, 103],
          [246, 103],
          [153, 146],
          [246, 146],
          [200, 125],
        ])
          expect(isBlue(at(x, y)), `blue at ${x},${y}`).toBe(true);
        for (const [x, y] of [
          [146, 125],
          [254, 125],
          [200, 96],
          [200, 154],
        ])
          expect(isBlue(at(x, y)), `not blue at ${x},${y}`).toBe(false);
      } finally {
        await em.close();
      }
    });
  }

  it("renders the service's own example body with the frame filled (background at the centre, scale 1)", async () => {
    const em = await start();
    try {
      const video = await render(em, {
        width: 1920,
        height: 1080,
        avatar_from: 3,
        elements: [
          { type: 'image', url: `${host.url}/green.png`, scale_x: 1, scale_y: 1, offset_x: 960, offset_y: 540 },
          {
            type: 'avatar',
            url: sample(em, 'avatar-SandboxAnna.mp4'),
            scale_x: 0.3,
            scale_y: 0.6,
            offset_x: 1380,
            offset_y: 540,
          },
          { type: 'audio', url: `${host.url}/voice.mp3` },
        ],
      });
      for (const [x, y] of [
        [4, 4],
        [1915, 4],
        [4, 1075],
        [1915, 1075],
        [200, 540],
      ])
        expect(isGreen(pixelAt(video, 0.3, x, y)), `background at ${x},${y}`).toBe(true);
      // The presenter is centred on (1380, 540): its centre is not the background.
      expect(isGreen(pixelAt(video, 0.3, 1380, 540))).toBe(false);
    } finally {
      await em.close();
    }
  });
});
