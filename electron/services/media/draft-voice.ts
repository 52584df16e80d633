import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { draftVoiceFor, wordsPerMinute } from '../../common/speech/draft-voice';
import type { ProcessRunner } from './process';
import type { SpeechEngine } from './speech-engine';

/**
 * The editor's draft voice: text the service would speak (a talking avatar's, a voiceover not generated
 * yet) spoken on this machine by espeak-ng, so the local preview is heard and lasts about as long as
 * the result. It stands in for the service's voice (same gender and accent where the voice list says,
 * same speed) and never pretends to be it. Each spoken text is kept as a WAV in `dir`, named by what
 * was spoken, so a preview rendered again does not speak it again.
 */
export interface VoiceFacts {
  name?: string;
  gender?: string | null;
  accent?: string | null;
}

export interface DraftVoiceDeps {
  runner: ProcessRunner;
  /** espeak-ng, or null when none is installed (then nothing is spoken and the preview says so). */
  engine: () => SpeechEngine | null;
  dir: string;
  /** What the service's voice list says of a voice id; null when unknown (offline, not listed). */
  voices?: (voiceId: string) => Promise<VoiceFacts | null>;
  /** How many spoken texts are kept. */
  keep?: number;
}

export interface DraftSpeech {
  path: string;
  /** "espeak-ng, en-us, female, 180 words a minute, for Ava": what the user hears instead. */
  description: string;
}

export class DraftVoiceError extends Error {
  override name = 'DraftVoiceError';
}

export class DraftVoice {
  private counter = 0;

  constructor(private readonly deps: DraftVoiceDeps) {}

  /** The engine's name, or null when no draft voice can be found. */
  engineName(): string | null {
    return this.deps.engine()?.name ?? null;
  }

  /** `text` spoken by the draft voice nearest `voiceId`, at `rate` (0..1, the interface's 0%..100%). */
  async speak(text: string, voiceId: string, rate: number, signal?: AbortSignal): Promise<DraftSpeech> {
    const engine = this.deps.engine();
    if (!engine) throw new DraftVoiceError('no draft voice is installed (espeak-ng)');
    const facts = (await this.deps.voices?.(voiceId).catch(() => null)) ?? null;
    const voice = draftVoiceFor(facts);
    const wpm = wordsPerMinute(rate);
    const description =
      [engine.name, voice.language, voice.gender ?? 'its default voice', `${wpm} words a minute`].join(', ') +
      (facts?.name ? `, for ${facts.name}` : '');
    const key = createHash('sha256')
      .update(JSON.stringify([engine.name, voice.espeak, voice.pitch, wpm, text]))
      .digest('hex')
      .slice(0, 32);
    const path = join(this.deps.dir, `${key}.wav`);
    if (((await stat(path).catch(() => null))?.size ?? 0) > 44) {
      // Touched, so the texts in use are the last to be pruned.
      await utimes(path, new Date(), new Date()).catch(() => undefined);
      return { path, description };
    }

    await mkdir(this.deps.dir, { recursive: true });
    const stem = join(this.deps.dir, `${key}.${process.pid}-${++this.counter}`);
    // Both end in .part, so what a crash leaves is swept at the next start.
    const textFile = `${stem}.txt.part`;
    const wav = `${stem}.wav.part`;
    try {
      // The text goes in a file: no length limit, and a text that starts with "-" is not an option.
      await writeFile(textFile, text, 'utf8');
      const args = [
        ...engine.prefix,
        '-v',
        voice.espeak,
        '-s',
        String(wpm),
        '-p',
        String(voice.pitch),
        '-f',
        textFile,
        '-w',
        wav,
      ];
      const result = await this.deps.runner.run(engine.bin, args, { signal });
      if (result.aborted) throw new DOMException('The render was cancelled', 'AbortError');
      if (result.code !== 0)
        throw new DraftVoiceError(
          `${engine.name} failed: ${result.stderr.trim().split('\n').at(-1) || `exit code ${result.code}`}`,
        );
      await rename(wav, path);
    } finally {
      await Promise.all([rm(textFile, { force: true }), rm(wav, { force: true })]);
    }
    await this.prune();
    return { path, description };
  }

  /** Keeps the newest spoken texts only. */
  private async prune(): Promise<void> {
    const keep = this.deps.keep ?? 64;
    const names = (await readdir(this.deps.dir).catch(() => [] as string[])).filter((n) => n.endsWith('.wav'));
    if (names.length <= keep) return;
    const dated = await Promise.all(
      names.map(async (n) => ({ n, at: (await stat(join(this.deps.dir, n)).catch(() => null))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => b.at - a.at);
    await Promise.all(dated.slice(keep).map(({ n }) => rm(join(this.deps.dir, n), { force: true })));
  }
}
