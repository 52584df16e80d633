// A voiceover's length read in-process must agree with ffprobe's on every file users have, or leave the
// file to ffprobe: the corpus (phone videos, voice memos, wrong extensions, cut-short and empty files),
// and the MP3s an encoder writes without a header naming their length.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceLengthOf } from '../../../electron/services/campaign/campaign-services';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { soundLengthMs } from '../../../electron/services/media/sound-length';
import { CORPUS_FILES, ensureCorpus } from '../../media-corpus/make-corpus';
import { mediaToolGenerations } from '../../media-tools-env';

describe.each(mediaToolGenerations())('a sound length read in-process, against $label', ({ ffmpeg, ffprobe }) => {
  let corpus: string;
  let scratch: string;
  const prober = new MediaProber(async () => ffprobe, new ProcessRunner());

  beforeAll(() => {
    corpus = ensureCorpus();
    scratch = mkdtempSync(join(tmpdir(), 'sound-length-'));
    const tone = ['-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=22050', '-t', '3'];
    for (const [name, args] of [
      ['vbr-no-header.mp3', ['-c:a', 'libmp3lame', '-q:a', '4', '-write_xing', '0']],
      ['cbr.mp3', ['-ac', '1', '-c:a', 'libmp3lame', '-b:a', '64k']],
    ] as const) {
      const made = spawnSync(ffmpeg, ['-v', 'error', '-y', ...tone, ...args, join(scratch, name)]);
      expect(made.status, made.stderr.toString()).toBe(0);
    }
    const whole = readFileSync(join(scratch, 'cbr.mp3'));
    writeFileSync(join(scratch, 'cut-short.mp3'), whole.subarray(0, Math.floor(whole.length / 2)));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each(CORPUS_FILES)('%s: the same length as ffprobe, or left to it', async (name) => {
    const path = join(corpus, name);
    const read = await soundLengthMs(path);
    const probed = await prober.probe(path).catch(() => null);
    if (read === null) return;
    expect(probed?.hasAudio).toBe(true);
    expect(Math.abs(read - (probed?.durationMs ?? 0))).toBeLessThanOrEqual(40);
  });

  it('reads every sound file of the corpus itself (the point of it: no ffprobe for a voiceover)', async () => {
    const sounds = ['cover.mp3', 'mono-8k.wav', 'wav-named.png', 'opus.ogg', 'sound.flac'];
    for (const name of sounds) expect(await soundLengthMs(join(corpus, name)), name).not.toBeNull();
  });

  it('counts the frames of an MP3 whose header does not give its length', async () => {
    for (const name of ['vbr-no-header.mp3', 'cbr.mp3']) {
      const read = await soundLengthMs(join(scratch, name));
      expect(Math.abs((read ?? 0) - 3000), name).toBeLessThanOrEqual(60);
    }
  });

  it('gives a cut-short MP3 the length of what arrived, as ffprobe does', async () => {
    const path = join(scratch, 'cut-short.mp3');
    const read = await soundLengthMs(path);
    const probed = await prober.probe(path);
    expect(read).not.toBeNull();
    expect(Math.abs(read! - probed.durationMs!)).toBeLessThanOrEqual(60);
  });

  // A voiceover is read whole and parsed in memory; a sound past that size is parsed from the file, alike.
  it('reads a sound too large to read whole from its file, with the same length', async () => {
    const path = join(scratch, 'long.wav');
    const silence = ['-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono', '-t', '250', '-c:a', 'pcm_s16le'];
    const made = spawnSync(ffmpeg, ['-v', 'error', '-y', ...silence, path]);
    expect(made.status, made.stderr.toString()).toBe(0);
    expect(statSync(path).size).toBeGreaterThan(8 * 1024 * 1024);
    expect(await soundLengthMs(path)).toBe(250_000);
  });

  it("falls back to ffprobe's reason for what is not a sound", async () => {
    const length = voiceLengthOf(
      async (url) => join(corpus, url),
      (path) => prober.probe(path),
    );
    await expect(length('jpeg-baseline.jpg')).rejects.toThrow('it is not a sound with a length');
    await expect(length('empty.mp3')).rejects.toThrow(/cannot read/);
    await expect(length('h264.mp4')).resolves.toBeGreaterThan(1400);
  });

  // A worker measures a voiceover from its bytes in memory; a file it reads again later (music, cuts), or
  // bytes that are no plain sound, go through its local copy and ffprobe as before, with the same length.
  it('measures a link in memory as it measures its file, and takes the file when asked to', async () => {
    const local: string[] = [];
    const length = voiceLengthOf(
      async (url) => {
        local.push(url);
        return join(corpus, new URL(url).pathname.slice(1));
      },
      (path) => prober.probe(path),
      async (url) => readFileSync(join(corpus, new URL(url).pathname.slice(1))),
    );
    for (const name of ['cover.mp3', 'mono-8k.wav', 'opus.ogg', 'sound.flac']) {
      expect(await length(`https://service.example/${name}`), name).toBe(await soundLengthMs(join(corpus, name)));
    }
    expect(local).toEqual([]);
    await length('https://service.example/cover.mp3', { again: true });
    expect(local).toEqual(['https://service.example/cover.mp3']);
    await expect(length('https://service.example/h264.mp4')).resolves.toBeGreaterThan(1400);
    await expect(length('https://service.example/jpeg-baseline.jpg')).rejects.toThrow(
      'it is not a sound with a length',
    );
    expect(local.length).toBe(3);
  });
});
