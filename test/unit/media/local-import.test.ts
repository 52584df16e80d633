import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegOrientation } from '../../../electron/common/composition/exif-orientation';
import { importLocalFile, importPath } from '../../../electron/services/media/local-import';
import { LocalGrants } from '../../../electron/services/media/local-grants';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { FFMPEG, FFPROBE, makeImage, makeTone, makeVideo, pixelAt } from '../../fixtures/composition/make-media';
import { UPRIGHT_QUADRANTS, ffmpegGenerations, sidewaysPhoto } from '../composition/exif-jpeg';

const close = (a: readonly number[], b: readonly number[]) => a.every((v, i) => Math.abs(v - b[i]) < 70);

/** A file dropped on the web host's page: its kind comes from its content, whatever its name says. */
describe('a dropped file is taken in as what it is', () => {
  let dir: string;
  const runner = new ProcessRunner();
  const prober = new MediaProber(async () => FFPROBE, runner);
  const grants = new LocalGrants();
  const take = (name: string, from: string, ffmpeg = FFMPEG) =>
    importLocalFile(
      { dir: join(dir, 'imports'), grants, prober, upright: { runner, ffmpeg: async () => ffmpeg } },
      name,
      createReadStream(from),
    );

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'import-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a JPEG is a picture, a WAV a sound and an MP4 a video, even under a wrong extension', async () => {
    const jpeg = makeImage(join(dir, 'photo.jpg'), { colour: 'red', width: 64, height: 48 });
    expect((await take('photo.jpg', jpeg)).info).toMatchObject({
      kind: 'image',
      format: 'jpeg',
      width: 64,
      height: 48,
    });
    expect((await take('holiday.mp4', jpeg)).info.kind).toBe('image');
    expect((await take('voice.png', makeTone(join(dir, 'voice.wav'), { seconds: 0.3 }))).info.kind).toBe('audio');
    expect(
      (
        await take(
          'clip.jpg',
          makeVideo(join(dir, 'clip.mp4'), { colour: 'blue', width: 64, height: 48, seconds: 0.4 }),
        )
      ).info.kind,
    ).toBe('video');
  });

  it('refuses a HEIC photo with a plain reason, and a file that is not media', async () => {
    const heic = join(process.cwd(), 'test/media-corpus/committed/photo.heic');
    await expect(take('IMG_0001.HEIC', heic)).rejects.toThrow(
      /^IMG_0001\.HEIC: An? HEIC picture cannot be used for an image element: the service does not take HEIC\. Save it as JPEG or PNG/,
    );
    await expect(
      importLocalFile(
        { dir: join(dir, 'imports'), grants, prober },
        'notes.jpg',
        Readable.from([Buffer.from('not a picture at all')]),
      ),
    ).rejects.toThrow('notes.jpg is not a picture, video or sound file');
  });

  it('a file the host can name is granted where it is, unless it is a sideways photo: then an upright copy, the original untouched', async () => {
    const deps = { dir: join(dir, 'imports'), grants, prober, upright: { runner, ffmpeg: async () => FFMPEG } };
    const plain = makeImage(join(dir, 'plain.jpg'), { colour: 'red', width: 40, height: 30 });
    expect(grants.pathOf((await importPath(deps, plain)).url)).toBe(plain);
    const phone = sidewaysPhoto(dir, FFMPEG, 'chosen.jpg');
    const before = readFileSync(phone);
    const chosen = await importPath(deps, phone);
    expect(chosen).toMatchObject({ name: 'chosen.jpg', info: { kind: 'image', width: 32, height: 64 } });
    expect(grants.pathOf(chosen.url)).not.toBe(phone);
    expect(readFileSync(phone).equals(before)).toBe(true);
    await expect(importPath(deps, join(process.cwd(), 'test/media-corpus/committed/photo.heic'))).rejects.toThrow(
      /^photo\.heic: An? HEIC picture cannot be used/,
    );
  });

  it.each(ffmpegGenerations())(
    'a photo stored sideways is taken in upright, measured as it stands ($name)',
    async ({ bin }) => {
      const chosen = await take('phone.jpg', sidewaysPhoto(dir, FFMPEG, `phone-${bin.length}.jpg`), bin);
      expect(chosen.info).toMatchObject({ kind: 'image', width: 32, height: 64 });
      const path = grants.pathOf(chosen.url)!;
      // No tag is left to turn it a second time, and its pixels stand upright for any reader.
      expect(jpegOrientation(readFileSync(path))).toBe(1);
      const corners = { topLeft: [8, 16], topRight: [24, 16], bottomLeft: [8, 48], bottomRight: [24, 48] } as const;
      for (const [corner, [x, y]] of Object.entries(corners)) {
        expect(close(pixelAt(path, 0, x, y), UPRIGHT_QUADRANTS[corner as keyof typeof corners]), corner).toBe(true);
      }
    },
  );
});
