// Caption timing on generated speech: each phrase is spoken separately by espeak-ng and the clips are
// joined with pauses of known length, so where every phrase starts and ends is known; the captions,
// made from the whole script and the joined voice alone, must fall within 0.3 s of it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSilences, speechSpans, splitPhrases, timeCaptions } from '@common/captions/caption-timing';
import { toSrt, toWebVtt } from '@common/captions/subtitle-files';
import { ProcessRunner } from '../../../electron/services/media/process';
import { captionsFor } from '../../../electron/services/media/voice-pauses';

/** Largest distance allowed between a cue's edge and where its phrase is really spoken. */
const TOLERANCE_MS = 300;

const dir = mkdtempSync(join(tmpdir(), 'captions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function seconds(path: string): number {
  return Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path], {
      encoding: 'utf8',
    }).trim(),
  );
}

/** The phrases spoken one by one and joined with `pauseS` of silence; the true span of each phrase's voice. */
function spokenScript(
  phrases: string[],
  pauseS: number,
): { path: string; truth: { startMs: number; endMs: number }[]; durationMs: number } {
  const clips = phrases.map((phrase, i) => {
    const raw = join(dir, `p${i}.wav`);
    execFileSync('espeak-ng', ['-w', raw, phrase]);
    // espeak-ng leaves a little silence at both ends: trimmed, the clip is the phrase's voice.
    const clip = join(dir, `c${i}.wav`);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      raw,
      '-af',
      'silenceremove=start_periods=1:start_threshold=-35dB,areverse,silenceremove=start_periods=1:start_threshold=-35dB,areverse',
      '-ar',
      '22050',
      '-ac',
      '1',
      clip,
    ]);
    return clip;
  });
  const gap = join(dir, 'gap.wav');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=22050:cl=mono`,
    '-t',
    String(pauseS),
    gap,
  ]);
  const truth: { startMs: number; endMs: number }[] = [];
  const parts: string[] = [];
  let at = 0;
  clips.forEach((clip, i) => {
    if (i > 0) {
      parts.push(gap);
      at += pauseS;
    }
    const length = seconds(clip);
    truth.push({ startMs: at * 1000, endMs: (at + length) * 1000 });
    at += length;
    parts.push(clip);
  });
  const list = join(dir, 'list.txt');
  execFileSync('sh', ['-c', `printf "file '%s'\\n" ${parts.map((p) => `'${p}'`).join(' ')} > '${list}'`]);
  const path = join(dir, 'voice.wav');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', path]);
  return { path, truth, durationMs: seconds(path) * 1000 };
}

describe('caption timing', () => {
  it('cuts a script into sentences and clauses, and long clauses in half', () => {
    expect(splitPhrases('Welcome to the studio. Today, we make a video!  Ready?')).toEqual([
      'Welcome to the studio.',
      'Today, we make a video!',
      'Ready?',
    ]);
    expect(splitPhrases('One two three four five, six seven eight nine ten eleven twelve thirteen.')).toEqual([
      'One two three four five,',
      'six seven eight nine ten eleven twelve thirteen.',
    ]);
    expect(splitPhrases('a b c d e f g h i j k l')).toEqual(['a b c d e f', 'g h i j k l']);
  });

  it('reads silencedetect from the log and from ametadata, closing a pause still open at the end', () => {
    const log =
      '[silencedetect @ 0x1] silence_start: 1.2\n[silencedetect @ 0x1] silence_end: 1.5 | silence_duration: 0.3\n[silencedetect @ 0x1] silence_start: 3.9';
    expect(parseSilences(log, 4200)).toEqual([
      { startMs: 1200, endMs: 1500 },
      { startMs: 3900, endMs: 4200 },
    ]);
    expect(parseSilences('lavfi.silence_start=0.25\nlavfi.silence_end=0.75\nlavfi.silence_duration=0.5', 2000)).toEqual(
      [{ startMs: 250, endMs: 750 }],
    );
    expect(
      speechSpans(
        [
          { startMs: 0, endMs: 100 },
          { startMs: 900, endMs: 1000 },
        ],
        1000,
      ),
    ).toEqual([{ startMs: 100, endMs: 900 }]);
  });

  it('times the phrases of generated speech within 0.3 s of where they are spoken', async () => {
    const phrases = [
      'Welcome to the studio.',
      'Today we make a short video about captions,',
      'and every phrase appears while it is spoken.',
      'Thanks for watching!',
    ];
    const voice = spokenScript(phrases, 0.6);
    const cues = await captionsFor(new ProcessRunner(), 'ffmpeg', phrases.join(' '), voice.path, voice.durationMs);
    expect(cues.map((c) => c.text)).toEqual(phrases);
    cues.forEach((cue, i) => {
      expect(Math.abs(cue.startMs - voice.truth[i].startMs), `start of "${cue.text}"`).toBeLessThanOrEqual(
        TOLERANCE_MS,
      );
      expect(Math.abs(cue.endMs - voice.truth[i].endMs), `end of "${cue.text}"`).toBeLessThanOrEqual(TOLERANCE_MS);
    });
  });

  it('without pauses, shares the speech by letters', () => {
    const cues = timeCaptions(['aaaa', 'bb bb bb bb'], [], 3000);
    expect(cues).toEqual([
      { text: 'aaaa', startMs: 0, endMs: 1000 },
      { text: 'bb bb bb bb', startMs: 1000, endMs: 3000 },
    ]);
  });

  it('writes SRT and WebVTT', () => {
    const cues = [
      { text: 'Hello, world.', startMs: 0, endMs: 1250 },
      { text: 'Two\n\nparagraphs --> one', startMs: 3_723_004, endMs: 3_725_000 },
    ];
    expect(toSrt(cues)).toBe(
      '1\n00:00:00,000 --> 00:00:01,250\nHello, world.\n\n2\n01:02:03,004 --> 01:02:05,000\nTwo\nparagraphs --> one\n',
    );
    expect(toWebVtt(cues)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.250\nHello, world.\n\n01:02:03.004 --> 01:02:05.000\nTwo\nparagraphs → one\n',
    );
  });
});
