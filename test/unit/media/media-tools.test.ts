import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaTools, peaksOf } from '../../../electron/services/media/media-tools';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { FFMPEG, FFPROBE, makeTone, makeVideo } from '../../fixtures/composition/make-media';

describe('MediaTools with real ffmpeg', () => {
  let dir: string;
  let tools: MediaTools;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tools-'));
    const runner = new ProcessRunner();
    const prober = new MediaProber(async () => FFPROBE, runner);
    tools = new MediaTools({
      runner,
      ffmpeg: async () => FFMPEG,
      dir: join(dir, 'scratch'),
      probe: (path) => prober.probe(path),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes a frame at a time, at a width', async () => {
    const clip = makeVideo(join(dir, 'c.mp4'), { colour: 'testsrc2', width: 320, height: 180, seconds: 1 });
    const jpeg = await tools.frame(clip, 500, 64);
    expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
    await expect(tools.frame(clip, 60_000, 64)).rejects.toThrow(/no frame at 60\.0 s/);
  });

  it('takes the still of a JPEG at any time without seeking into it', async () => {
    const photo = join(dir, 'photo.jpg');
    execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720', '-frames:v', '1', photo]);
    for (const at of [0, 2500]) expect((await tools.frame(photo, at, 64)).subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('measures the peaks of a sound track', async () => {
    const tone = makeTone(join(dir, 't.wav'), { seconds: 2 });
    const { peaks, durationMs } = await tools.waveform(tone, 20);
    expect(peaks).toHaveLength(20);
    expect(Math.abs(durationMs - 2000)).toBeLessThan(50);
    // lavfi's sine has an amplitude of 1/8.
    expect(peaks.every((p) => p > 0.1 && p < 0.14)).toBe(true);
    await expect(tools.waveform(join(dir, 'missing.wav'), 10)).rejects.toThrow(/ffmpeg could not read the sound/);
  });

  it('computes peaks per bucket', () => {
    expect(peaksOf(new Int16Array([0, 16384, -32768, 0]), 2)).toEqual([0.5, 1]);
    expect(peaksOf(new Int16Array([]), 3)).toEqual([0, 0, 0]);
  });

  it('reads a waveform once per file version, and never runs more ffmpeg glances at once than allowed', async () => {
    const runner = new ProcessRunner();
    let running = 0;
    let most = 0;
    let runs = 0;
    const counted = Object.assign(Object.create(runner) as ProcessRunner, {
      run: async (...args: Parameters<ProcessRunner['run']>) => {
        runs += 1;
        running += 1;
        most = Math.max(most, running);
        try {
          return await runner.run(...args);
        } finally {
          running -= 1;
        }
      },
    });
    const prober = new MediaProber(async () => FFPROBE, runner);
    const limited = new MediaTools({
      runner: counted,
      ffmpeg: async () => FFMPEG,
      dir: join(dir, 'scratch-limited'),
      probe: (path) => prober.probe(path),
      concurrency: 2,
    });
    const tones = [1, 2, 3, 4, 5].map((n) => makeTone(join(dir, `voice-${n}.wav`), { seconds: 1 }));

    const first = await Promise.all(tones.map((tone) => limited.waveform(tone, 50)));
    expect(runs).toBe(5);
    expect(most).toBe(2);
    // The same voices shown again: nothing is read.
    const again = await Promise.all(tones.map((tone) => limited.waveform(tone, 50)));
    expect(again).toEqual(first);
    expect(runs).toBe(5);
    // A file changed since (a new modification time) is read again.
    utimesSync(tones[0], new Date(), new Date(Date.now() + 5000));
    await limited.waveform(tones[0], 50);
    expect(runs).toBe(6);
  });
});
