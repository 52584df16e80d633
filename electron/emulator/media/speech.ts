import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaError } from '../errors';
import type { MediaTools } from './tools';
import { wordsPerMinute, type EspeakVoice } from '../../common/speech/draft-voice';

/** espeak-ng voice with variant, e.g. "en-us+f3", and pitch 0..99: one definition with the preview's draft voice. */
export type SpeechVoice = EspeakVoice;

/** Speaks `text` into an MP3 at `out` (real speech from espeak-ng, encoded by ffmpeg). */
export async function speak(
  tools: MediaTools,
  text: string,
  voice: SpeechVoice,
  rate: number,
  out: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<void> {
  const textFile = join(workDir, `speech-${Date.now()}.txt`);
  const wav = `${textFile}.wav`;
  await writeFile(textFile, text, 'utf8');
  await tools.speakToFile(
    ['-v', voice.espeak, '-s', String(wordsPerMinute(rate)), '-p', String(Math.round(voice.pitch)), '-f', textFile],
    wav,
    ['-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '64k'],
    out,
    signal,
  );
}

const SAMPLE_RATE = 16000;

/**
 * Median fundamental frequency (Hz) of the voiced parts of a recording, by normalised
 * autocorrelation over 40 ms frames. Null when nothing voiced is found.
 */
export function estimatePitch(samples: Int16Array, sampleRate = SAMPLE_RATE): number | null {
  const frame = Math.round(sampleRate * 0.04);
  const hop = Math.round(sampleRate * 0.02);
  const minLag = Math.floor(sampleRate / 400);
  const maxLag = Math.ceil(sampleRate / 60);
  const found: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += hop) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += samples[start + i] * samples[start + i];
    if (Math.sqrt(energy / frame) < 500) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let sum = 0;
      let e2 = 0;
      for (let i = 0; i < frame; i++) {
        sum += samples[start + i] * samples[start + i + lag];
        e2 += samples[start + i + lag] * samples[start + i + lag];
      }
      const score = sum / Math.sqrt(energy * e2 || 1);
      if (score > best) {
        best = score;
        bestLag = lag;
      }
    }
    if (best > 0.5 && bestLag > 0) found.push(sampleRate / bestLag);
  }
  if (found.length < 3) return null;
  found.sort((a, b) => a - b);
  return found[Math.floor(found.length / 2)];
}

/** A voice derived from a sample: gender variant by pitch, espeak pitch offset from the measured F0. */
export function voiceFromPitch(f0: number): SpeechVoice & { gender: 'female' | 'male' } {
  const female = f0 >= 165;
  const reference = female ? 210 : 120;
  const pitch = Math.min(99, Math.max(0, Math.round(50 + ((f0 - reference) / reference) * 100)));
  return { espeak: female ? 'en-us+f3' : 'en-us+m3', pitch, gender: female ? 'female' : 'male' };
}

/** Decodes up to 20 s of any audio/video file to 16 kHz mono and measures its pitch. */
export async function measurePitch(
  tools: MediaTools,
  input: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<number> {
  const raw = join(workDir, `pitch-${Date.now()}.s16`);
  try {
    await tools.runFfmpeg(
      ['-i', input, '-vn', '-t', '20', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', raw],
      signal,
    );
  } catch (error) {
    throw new MediaError(1112, `voice_url is not a usable audio file (${(error as Error).message})`);
  }
  const bytes = await readFile(raw);
  const f0 = estimatePitch(new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2)));
  if (f0 === null) throw new MediaError(1112, 'voice_url holds no voiced speech to clone a voice from');
  return f0;
}
