// The music mix with real ffmpeg, once with the npm 4.1 build the studio falls back to and once with the
// system's current ffmpeg: the mix lands on the loudness target (EBU R128, measured with ffmpeg's own
// ebur128 meter), the music is ducked under the voice by the amount set, and music files as users
// have them (the media corpus) mix, while a cut-short or empty one is refused by name. The same mix asked
// for twice at once is made for both callers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DEFAULT_LOUDNESS, defaultMusicTrack, type LoudnessTarget, type MusicTrack } from '@common/composition';
import { MusicMixer, MusicMixError } from '../../../electron/services/media/music-mix';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { findSpeechEngine } from '../../../electron/services/media/speech-engine';
import { ensureCorpus } from '../../media-corpus/make-corpus';
import { mediaToolGenerations } from '../../media-tools-env';
import { MEDIA_TEST_GUARD_MS } from '../../wait';

const SCRIPT =
  'Welcome to the studio. Today we put music under the voice. The music goes down while I speak, and comes back up in the pauses between my sentences.';

function ffmpegOk(ffmpeg: string, args: string[]): string {
  const result = spawnSync(ffmpeg, ['-hide_banner', '-nostdin', '-nostats', '-y', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${result.stderr.slice(-400)}`);
  return result.stderr;
}

/** Integrated loudness by ffmpeg's EBU R128 meter. */
function integratedLufs(ffmpeg: string, path: string): number {
  const log = ffmpegOk(ffmpeg, ['-i', path, '-af', 'ebur128', '-f', 'null', '-']);
  const summary = log.slice(log.lastIndexOf('Summary:'));
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)![1]);
}

/** Mean level (dB) of `path` between two times, through a narrow band-pass around `hz`. */
function bandLevel(ffmpeg: string, path: string, fromS: number, toS: number, hz: number): number {
  const log = ffmpegOk(ffmpeg, [
    '-i',
    path,
    '-af',
    `atrim=start=${fromS}:end=${toS},bandpass=f=${hz}:width_type=q:w=8,volumedetect`,
    '-f',
    'null',
    '-',
  ]);
  return Number(/mean_volume:\s+(-?[\d.]+) dB/.exec(log)![1]);
}

function track(patch: Partial<MusicTrack> = {}): MusicTrack {
  return { ...defaultMusicTrack('file:///music', 'music'), ...patch };
}

describe.each(mediaToolGenerations())('music mix with $label', ({ ffmpeg, ffprobe }) => {
  let dir: string;
  let mixer: MusicMixer;
  let speech: string;
  let chord: string;
  let runs: MockInstance<ProcessRunner['run']>;
  /** How many times the shared mixer measured `path`'s loudness. */
  const analysesOf = (path: string) =>
    runs.mock.calls.filter(([, args]) => {
      const at = args.indexOf('-i');
      const filter = args[args.indexOf('-af') + 1] ?? '';
      return args[at + 1] === path && filter.startsWith('aresample=') && filter.endsWith('loudnorm=print_format=json');
    }).length;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'music-mix-'));
    const runner = new ProcessRunner();
    runs = vi.spyOn(runner, 'run');
    mixer = new MusicMixer({
      runner,
      ffmpeg: async () => ffmpeg,
      prober: new MediaProber(async () => ffprobe, runner),
      dir: join(dir, 'mixes'),
    });
    // The sandbox's own speech engine (system espeak-ng, or its npm WebAssembly build).
    const engine = findSpeechEngine();
    if (engine === 'none') throw new Error('No espeak-ng: the sandbox speech engine is part of the install');
    writeFileSync(join(dir, 'script.txt'), SCRIPT);
    speech = join(dir, 'speech.wav');
    const spoken = spawnSync(engine.bin, [...engine.prefix, '-f', join(dir, 'script.txt'), '-w', speech], {
      encoding: 'utf8',
    });
    if (spoken.status !== 0) throw new Error(`espeak-ng failed: ${spoken.stderr}`);
    // Music as mastered: loud, a chord with a slow swell.
    chord = join(dir, 'chord.mp3');
    ffmpegOk(ffmpeg, [
      '-f',
      'lavfi',
      '-i',
      "aevalsrc='0.3*(sin(2*PI*220*t)+sin(2*PI*277*t)+sin(2*PI*330*t))*(0.8+0.2*sin(2*PI*0.25*t))':s=44100:d=7",
      '-ac',
      '2',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '192k',
      chord,
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['web', DEFAULT_LOUDNESS],
    ['broadcast', { preset: 'broadcast', lufs: -23, truePeakDb: -1 } as LoudnessTarget],
  ])('brings speech with music under it to the %s target within 1 LU', async (_name, loudness) => {
    const result = await mixer.mix({
      voicePath: speech,
      musicPath: chord,
      plan: { track: track(), offsetMs: 0, fadeIn: true, fadeOut: true, minLengthMs: 0, loudness },
      label: 'Scene 1',
    });
    const measured = integratedLufs(ffmpeg, result.path);
    expect(
      Math.abs(measured - loudness.lufs),
      `measured ${measured} LUFS for a ${loudness.lufs} LUFS target`,
    ).toBeLessThanOrEqual(1);
    // The 7 s music was looped under the whole voice.
    expect(result.durationMs).toBeGreaterThan(7000);
    // Under both targets' mixes, the music's loudness was measured once (kept by the file's version).
    expect(analysesOf(chord)).toBe(1);
  });

  it('ducks the music under the voice by the amount set (within 2 dB)', async () => {
    // A voice that speaks 0–2 s and 5–7 s (a 200 Hz tone), and music at 3 kHz: the band-pass hears the music alone.
    const voice = join(dir, 'phrases.wav');
    ffmpegOk(ffmpeg, ['-f', 'lavfi', '-i', "aevalsrc='0.3*sin(2*PI*200*t)*lt(mod(t,5),2)':s=48000:d=9", voice]);
    const music = join(dir, 'high.wav');
    ffmpegOk(ffmpeg, ['-f', 'lavfi', '-i', 'sine=frequency=3000:sample_rate=48000:duration=9', music]);
    for (const duckDb of [12, 6]) {
      const result = await mixer.mix({
        voicePath: voice,
        musicPath: music,
        plan: {
          track: track({ duckDb, fadeInMs: 0, fadeOutMs: 0 }),
          offsetMs: 0,
          fadeIn: true,
          fadeOut: true,
          minLengthMs: 0,
          loudness: DEFAULT_LOUDNESS,
        },
        label: 'Scene 1',
      });
      const underVoice = bandLevel(ffmpeg, result.path, 0.5, 1.5, 3000);
      const between = bandLevel(ffmpeg, result.path, 3.0, 4.5, 3000);
      expect(
        Math.abs(between - underVoice - duckDb),
        `music ${between} dB between phrases, ${underVoice} dB under them, for ${duckDb} dB of ducking`,
      ).toBeLessThanOrEqual(2);
    }
  });

  it(
    'mixes music files as users have them, and refuses a cut-short or empty one by name',
    async () => {
      const corpus = ensureCorpus();
      // A phone's clip (its sound is the music) and the sound formats people save music in, as a scene of
      // music alone (an intro), brought to where music sits under a voice at the target: −16 − 10 LUFS.
      for (const name of ['cover.mp3', 'aac.m4a', 'mono-8k.wav', 'opus.ogg', 'sound.flac', 'phone.mov']) {
        const result = await mixer.mix({
          voicePath: null,
          musicPath: join(corpus, name),
          plan: {
            track: track({ name }),
            offsetMs: 0,
            fadeIn: false,
            fadeOut: false,
            minLengthMs: 3000,
            loudness: DEFAULT_LOUDNESS,
          },
          label: 'Scene 1',
        });
        expect(result.durationMs, name).toBe(3000);
        expect(Math.abs(integratedLufs(ffmpeg, result.path) - (DEFAULT_LOUDNESS.lufs - 10)), name).toBeLessThanOrEqual(
          1,
        );
      }
      for (const name of ['truncated.mp4', 'empty.mp3', 'jpeg-baseline.jpg']) {
        const attempt = mixer.mix({
          voicePath: null,
          musicPath: join(corpus, name),
          plan: {
            track: track({ name }),
            offsetMs: 0,
            fadeIn: true,
            fadeOut: true,
            minLengthMs: 3000,
            loudness: DEFAULT_LOUDNESS,
          },
          label: 'Scene 2',
        });
        await expect(attempt, name).rejects.toThrow(MusicMixError);
        await expect(attempt, name).rejects.toThrow(
          new RegExp(`^Scene 2: the music \\(${name.replace('.', '\\.')}\\) (is not a sound|has no sound)`),
        );
      }
    },
    MEDIA_TEST_GUARD_MS,
  );

  // The canvas's Play and Preview ask for a scene's mix at the same moment after the music changes:
  // both get it, neither removing the other's working files (they shared their names once), and it is
  // made once for both (the second caller waits for the first one's passes).
  it('makes the same mix asked for twice at once, both callers getting it', async () => {
    const runner = new ProcessRunner();
    const freshRuns = vi.spyOn(runner, 'run');
    const fresh = new MusicMixer({
      runner,
      ffmpeg: async () => ffmpeg,
      prober: new MediaProber(async () => ffprobe, runner),
      dir: join(dir, 'mixes-at-once'),
    });
    const request = {
      voicePath: speech,
      musicPath: chord,
      plan: { track: track(), offsetMs: 0, fadeIn: true, fadeOut: true, minLengthMs: 0, loudness: DEFAULT_LOUDNESS },
      label: 'Scene 1',
    };
    const [a, b] = await Promise.all([fresh.mix(request), fresh.mix(request)]);
    expect(b.path).toBe(a.path);
    expect(Math.abs(integratedLufs(ffmpeg, a.path) - DEFAULT_LOUDNESS.lufs)).toBeLessThanOrEqual(1);
    // One pass bringing the mix to its target, for both callers.
    const finalPasses = freshRuns.mock.calls.filter(([, args]) => /\.part\.mp3$/.test(args.at(-1) ?? ''));
    expect(finalPasses).toHaveLength(1);
  });
});
