import { parseSilences, splitPhrases, timeCaptions, type Cue, type Span } from '../../common/captions/caption-timing';
import type { ProcessRunner } from './process';

/**
 * The pauses in a voice, found by ffmpeg's silencedetect (quieter than NOISE_DB for at least
 * MIN_PAUSE_S), and the captions of a script timed on them. The filter's findings are printed to
 * stdout by ametadata, so a long voice's many pauses are all read (stderr keeps only its tail).
 */
const NOISE_DB = -35;
const MIN_PAUSE_S = 0.2;

export async function voicePauses(
  runner: ProcessRunner,
  ffmpeg: string,
  audioPath: string,
  durationMs: number,
  signal?: AbortSignal,
): Promise<Span[]> {
  const args = [
    '-hide_banner',
    '-nostats',
    '-i',
    audioPath,
    '-af',
    `silencedetect=noise=${NOISE_DB}dB:d=${MIN_PAUSE_S},ametadata=mode=print:file=-`,
    '-f',
    'null',
    '-',
  ];
  const result = await runner.run(ffmpeg, args, { signal });
  if (result.aborted) throw new Error('Finding the pauses was stopped.');
  if (result.code !== 0)
    throw new Error(
      `ffmpeg could not read the voice to find its pauses: ${result.stderr.trim().split('\n').pop() ?? ''}`,
    );
  return parseSilences(result.stdout, durationMs);
}

/** The script's phrases timed on the voice. */
export async function captionsFor(
  runner: ProcessRunner,
  ffmpeg: string,
  script: string,
  audioPath: string,
  durationMs: number,
  signal?: AbortSignal,
): Promise<Cue[]> {
  return timeCaptions(
    splitPhrases(script),
    await voicePauses(runner, ffmpeg, audioPath, durationMs, signal),
    durationMs,
  );
}
