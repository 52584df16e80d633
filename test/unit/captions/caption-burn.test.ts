// Burning captions into a copy of a video: a frame inside a caption's time shows the caption's
// pixels where the rasteriser places them, a frame outside it does not; the original is untouched and
// a failed burn leaves no file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CAPTION_SETTINGS } from '@common/captions/caption-track';
import { drawCue } from '@common/captions/caption-pictures';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { burnCaptions, burnedName, CaptionBurnError } from '../../../electron/services/media/caption-burn';
import { nodeRasteriser } from '../text/text-node';

const dir = mkdtempSync(join(tmpdir(), 'burn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runner = new ProcessRunner();
const deps = {
  runner,
  ffmpeg: async () => 'ffmpeg',
  prober: new MediaProber(async () => 'ffprobe', runner),
  rasteriser: nodeRasteriser(),
};

/** A plain light-blue 640×360 video of 2 s with a tone, like a result. */
function video(name: string): string {
  const path = join(dir, name);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=0xc8dcf0:s=640x360:d=2:r=25',
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=2',
    '-shortest',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    path,
  ]);
  return path;
}

/** Mean brightness of a region of the frame at `seconds`. */
function brightness(
  path: string,
  seconds: number,
  box: { x: number; y: number; width: number; height: number },
): number {
  const raw = execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      path,
      '-frames:v',
      '1',
      '-vf',
      `crop=${box.width}:${box.height}:${box.x}:${box.y}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ],
    { maxBuffer: 1 << 24 },
  );
  return raw.reduce((sum, v) => sum + v, 0) / raw.length;
}

describe('burning captions into a copy', () => {
  it('shows the caption box only while its caption is spoken, in a new file beside the original', async () => {
    const original = video('Result.mp4');
    const before = readFileSync(original);
    const fractions: number[] = [];
    const out = await burnCaptions(deps, {
      input: original,
      cues: [{ text: 'Hello there.', startMs: 500, endMs: 1500 }],
      settings: DEFAULT_CAPTION_SETTINGS,
      onProgress: (f) => fractions.push(f),
    });
    expect(out).toBe(join(dir, 'Result (captions).mp4'));
    expect(readFileSync(original).equals(before)).toBe(true);
    const placed = await drawCue(nodeRasteriser(), DEFAULT_CAPTION_SETTINGS, 'Hello there.', {
      width: 640,
      height: 360,
    });
    // The box's left edge strip, inside the box but clear of the letters: dark while shown, the background otherwise.
    const strip = { x: placed.x + 2, y: placed.y + 4, width: 4, height: Math.max(2, placed.height - 8) };
    expect(brightness(out, 1.0, strip)).toBeLessThan(80);
    expect(brightness(out, 0.2, strip)).toBeGreaterThan(180);
    expect(brightness(out, 1.8, strip)).toBeGreaterThan(180);
    expect(fractions.at(-1)).toBe(1);
    // Burned again: a second name, the first copy kept.
    expect(
      await burnCaptions(deps, {
        input: original,
        cues: [{ text: 'Again', startMs: 0, endMs: 500 }],
        settings: DEFAULT_CAPTION_SETTINGS,
      }),
    ).toBe(join(dir, 'Result (captions 2).mp4'));
  });

  it('refuses nothing to burn and a file without a picture, and a failed ffmpeg leaves no part file', async () => {
    const original = video('Fails.mp4');
    await expect(
      burnCaptions(deps, {
        input: original,
        cues: [{ text: '  ', startMs: 0, endMs: 500 }],
        settings: DEFAULT_CAPTION_SETTINGS,
      }),
    ).rejects.toThrow('no captions to burn');
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a video');
    await expect(
      burnCaptions(deps, {
        input: text,
        cues: [{ text: 'x', startMs: 0, endMs: 500 }],
        settings: DEFAULT_CAPTION_SETTINGS,
      }),
    ).rejects.toBeInstanceOf(CaptionBurnError);
    const broken = { ...deps, ffmpeg: async () => join(dir, 'no-such-ffmpeg') };
    await expect(
      burnCaptions(broken, {
        input: original,
        cues: [{ text: 'x', startMs: 0, endMs: 500 }],
        settings: DEFAULT_CAPTION_SETTINGS,
      }),
    ).rejects.toThrow();
    const failing = {
      ...deps,
      runner: {
        run: async (_bin: string, args: string[]) => (
          writeFileSync(args.at(-1)!, 'half a file'),
          { code: 1, stderr: 'Conversion failed!', stdout: '', aborted: false }
        ),
      } as unknown as ProcessRunner,
    };
    await expect(
      burnCaptions(failing, {
        input: original,
        cues: [{ text: 'x', startMs: 0, endMs: 500 }],
        settings: DEFAULT_CAPTION_SETTINGS,
      }),
    ).rejects.toThrow('ffmpeg could not burn the captions in: Conversion failed!');
    expect(readdirSync(dir).filter((f) => f.startsWith('Fails') && f !== 'Fails.mp4')).toEqual([]);
  });

  it('never names the copy after the original or a copy that exists', () => {
    const taken = new Set(['/v/a (captions).mp4', '/v/a (captions 2).mp4.part']);
    expect(burnedName('/v/a.mp4', (p) => taken.has(p))).toBe('/v/a (captions 3).mp4');
  });
});
