import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addElement,
  buildFfmpegArgs,
  buildPosterArgs,
  createProject,
  planFromProject,
  type Project,
} from '@common/composition';
import { jpegOrientation } from '@common/composition/exif-orientation';
import { FFMPEG, pixelAt, probe } from '../../fixtures/composition/make-media';
import { UPRIGHT_QUADRANTS, ffmpegGenerations, sidewaysPhoto } from './exif-jpeg';

const close = (a: readonly number[], b: readonly number[]) => a.every((v, i) => Math.abs(v - b[i]) < 70);

/** The four quadrants of the photo's box (40,20 64×128) as drawn in a frame. */
function quadrants(file: string, t: number) {
  return {
    topLeft: pixelAt(file, t, 56, 50),
    topRight: pixelAt(file, t, 88, 50),
    bottomLeft: pixelAt(file, t, 56, 120),
    bottomRight: pixelAt(file, t, 88, 120),
  };
}

function expectUpright(file: string, t: number): void {
  const seen = quadrants(file, t);
  for (const corner of Object.keys(UPRIGHT_QUADRANTS) as Array<keyof typeof UPRIGHT_QUADRANTS>) {
    expect(close(seen[corner], UPRIGHT_QUADRANTS[corner]), `${corner} at ${t} s is ${seen[corner].join(',')}`).toBe(
      true,
    );
  }
}

/**
 * A phone photo (a JPEG stored sideways with EXIF orientation 6) in a preview, rendered by each ffmpeg
 * generation the studio may run: held for the whole scene, never seeked, and standing upright in both
 * (4.1 ignores the tag and 5.1 applies it on its own, so the compositor turns it itself).
 */
describe.each(ffmpegGenerations())('a photo in the preview with $name', ({ bin }) => {
  let dir: string;
  let photo: string;
  let project: Project;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pictures-'));
    photo = sidewaysPhoto(dir, FFMPEG);
    // 160×160 black frame; the photo drawn upright (32×64) at 40,20 scaled to 64×128; 1.2 s scene.
    project = createProject({
      id: 'p',
      kind: 'avatar-video',
      output: { width: 160, height: 160 },
      background: '#000000',
    });
    project = addElement(project, 'scene-1', {
      id: 'photo',
      type: 'image',
      url: 'https://m/photo.jpg',
      x: 40,
      y: 20,
      width: 64,
      height: 128,
    });
    project = { ...project, scenes: [{ ...project.scenes[0], durationMs: 1200 }] };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const plan = () =>
    planFromProject(project, () => ({ path: photo, still: true, orientation: jpegOrientation(readFileSync(photo)) }));

  it('stands upright from the first frame to the last', () => {
    const out = join(dir, `out.mp4`);
    const command = buildFfmpegArgs(plan(), { outputPath: out, quality: 'preview' });
    const run = spawnSync(bin, command.args, { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(Math.abs(probe(out).seconds - 1.2)).toBeLessThan(0.1);
    for (const t of [0, 1.1]) {
      expectUpright(out, t);
      expect(close(pixelAt(out, t, 130, 80), [0, 0, 0])).toBe(true);
    }
  });

  it('is in the poster frame at any time in its scene', () => {
    const out = join(dir, 'poster.jpg');
    const command = buildPosterArgs(plan(), { atMs: 900, outputPath: out });
    expect(spawnSync(bin, command.args, { encoding: 'utf8' }).stderr).toBe('');
    expectUpright(out, 0);
  });
});
