import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MediaProbeError, parseFfprobeJson } from '@common/composition/media-info';
import { characterSwapChecks, lipSyncChecks } from '@common/composition/media-checks';

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../../fixtures/composition/probe', `${name}.json`), 'utf8');

describe('parseFfprobeJson (real ffprobe output)', () => {
  it('reads a video with sound', () => {
    expect(parseFfprobeJson(fixture('av'))).toEqual({
      kind: 'video',
      durationMs: 2000,
      width: 320,
      height: 240,
      fps: 30,
      videoCodec: 'h264',
      audioCodec: 'aac',
      hasVideo: true,
      hasAudio: true,
      sizeBytes: expect.any(Number),
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      format: 'mp4',
      rotation: 0,
    });
  });

  it('reads a silent video, an audio file and a still image', () => {
    expect(parseFfprobeJson(fixture('silent'))).toMatchObject({
      kind: 'video',
      durationMs: 1520,
      fps: 25,
      hasAudio: false,
      audioCodec: null,
    });
    expect(parseFfprobeJson(fixture('voice'))).toMatchObject({
      kind: 'audio',
      durationMs: 1280,
      width: null,
      fps: null,
      audioCodec: 'mp3',
      hasVideo: false,
    });
    expect(parseFfprobeJson(fixture('still'))).toMatchObject({
      kind: 'image',
      durationMs: null,
      width: 64,
      height: 48,
      fps: null,
      videoCodec: 'png',
      format: 'png',
    });
  });

  it('reads a JPEG that ffprobe opened with image2 and a one-frame "duration" as a picture', () => {
    expect(parseFfprobeJson(fixture('jpeg-image2'))).toMatchObject({
      kind: 'image',
      format: 'jpeg',
      durationMs: null,
      fps: null,
      width: 1280,
      height: 720,
    });
  });

  it('swaps width and height of a rotated video', () => {
    expect(parseFfprobeJson(fixture('rotated'))).toMatchObject({ width: 120, height: 160, rotation: 90 });
  });

  it('refuses output without streams', () => {
    expect(() => parseFfprobeJson('{}')).toThrow(MediaProbeError);
    expect(() => parseFfprobeJson('{}')).toThrow(/not a media file/);
    expect(() => parseFfprobeJson('nope')).toThrow(/JSON/);
  });
});

describe('service pre-checks', () => {
  const video = parseFfprobeJson(fixture('av'));
  it('lip sync: fps warning, missing audio, length mismatch, limits', () => {
    const codes = (checks: { code: string }[]) => checks.map((c) => c.code);
    expect(codes(lipSyncChecks(video))).toEqual(['fps-high']);
    expect(codes(lipSyncChecks(parseFfprobeJson(fixture('silent'))))).toEqual(['no-audio']);
    expect(codes(lipSyncChecks(video, parseFfprobeJson(fixture('voice'))))).toEqual(['fps-high', 'length-mismatch']);
    const big = { ...video, durationMs: 61_000, sizeBytes: 301 * 1024 * 1024, fps: 61 };
    expect(lipSyncChecks(big).map((c) => [c.level, c.code])).toEqual([
      ['error', 'too-long'],
      ['error', 'too-large'],
      ['error', 'fps-too-high'],
    ]);
    // Each refusal names the interface document's code, so the user can look the reason up.
    expect(lipSyncChecks(big).map((c) => c.message.match(/\b12\d\d\b/)?.[0])).toEqual(['1204', '1207', '1210']);
    expect(codes(lipSyncChecks(parseFfprobeJson(fixture('still'))))).toEqual(['not-video']);
  });

  it('character swap: 1 to 120 seconds', () => {
    expect(characterSwapChecks(video)).toEqual([]);
    expect(characterSwapChecks({ ...video, durationMs: 121_000 })[0].message).toMatch(/1 to 120 s/);
    expect(characterSwapChecks({ ...video, durationMs: 500 })).toHaveLength(1);
  });
});
