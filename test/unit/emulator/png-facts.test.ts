// The sandbox reads a plain PNG upload in its own process (media/png-facts.ts) rather than starting an
// ffprobe for it: what it reads must be what ffprobe says of the same file, and anything it is not sure
// of (cut short, animated, another format, junk after the end) is left to ffprobe.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pngFacts } from '../../../electron/emulator/media/png-facts';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { FFMPEG, FFPROBE } from '../../fixtures/composition/make-media';

const dir = mkdtempSync(join(tmpdir(), 'png-facts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const prober = new MediaProber(async () => FFPROBE, new ProcessRunner());

/** One frame of a test pattern as a PNG of the given size and pixel format. */
function png(name: string, size: string, pixels: string, more: string[] = []): string {
  const path = join(dir, name);
  execFileSync(FFMPEG, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=s=${size}:d=1`, '-frames:v', '1'],
    ...['-pix_fmt', pixels, ...more, path],
  ]);
  return path;
}

describe("the sandbox's own reading of a PNG upload", () => {
  it.each([
    ['rgb24', '150x24'],
    ['rgba', '320x180'],
    ['gray', '7x3'],
    ['pal8', '64x64'],
    ['rgb48be', '33x17'],
  ])('says what ffprobe says of a %s picture', async (pixels, size) => {
    const path = png(`still-${pixels}.png`, size, pixels);
    const read = await pngFacts(path);
    expect(read).not.toBeNull();
    expect(read).toEqual(await prober.probe(path));
  });

  it('leaves to ffprobe a file cut short, with junk after its end, animated, or not a PNG', async () => {
    const whole = readFileSync(png('whole.png', '64x64', 'rgb24'));
    const cut = join(dir, 'cut.png');
    writeFileSync(cut, whole.subarray(0, whole.length - 20));
    const junk = join(dir, 'junk.png');
    writeFileSync(junk, Buffer.concat([whole, Buffer.from('more')]));
    const badHeader = join(dir, 'bad-header.png');
    const flipped = Buffer.from(whole);
    flipped[17] ^= 0xff; // the IHDR's width, under its CRC
    writeFileSync(badHeader, flipped);
    const animated = join(dir, 'animated.png');
    execFileSync(FFMPEG, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=32x32:d=0.2:r=10'],
      ...['-plays', '0', '-f', 'apng', animated],
    ]);
    const jpeg = join(dir, 'still.jpg');
    execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=32x32', '-frames:v', '1', jpeg]);
    for (const path of [cut, junk, badHeader, animated, jpeg, join(dir, 'none.png')])
      expect(await pngFacts(path), path).toBeNull();
  });
});
