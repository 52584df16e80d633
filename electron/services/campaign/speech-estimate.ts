import { open, stat } from 'node:fs/promises';
import { parseRate } from '../../common/api/common';
import {
  fitSpeechLine,
  speechMs,
  wordsEstimateMs,
  type SpeechEstimate,
  type SpeechLine,
  type SpeechSample,
} from '../../common/campaign/speech-fit';
import type { DraftVoice } from '../media/draft-voice';

/**
 * How long each row's scripts will speak, for the campaign's check. Speaking every row with the draft
 * voice would take minutes at 5,000 rows, so each voice and speed is spoken a couple of times (its
 * shortest and longest scripts among the rows) and the rest is read off the straight line through
 * those. Without a draft voice the words are counted at the voice's speed instead. Both are estimates,
 * and the check says which it used.
 */
export interface SpeechScript {
  text: string;
  voiceId: string;
  rate: string;
}

export interface SpeechEstimates {
  estimate: SpeechEstimate;
  /** How the lengths were found, for the user ("estimated with the draft voice (espeak-ng) …"). */
  how: string;
}

/** The longest sample spoken: enough to set the slope, quick to speak. */
const MAX_SAMPLE_CHARS = 600;
/** Spoken besides a group's scripts when they are all about as long (the slope needs two lengths). */
const LONG_SAMPLE =
  'Thank you for taking the time to look at this. We put together a short overview of what we can do for your team, what it costs, and how quickly you could be up and running with it.';

export class SpeechEstimator {
  /** Each voice and speed's line, once found (the page checks again after every edit). */
  private readonly lines = new Map<string, Promise<SpeechLine | null>>();

  constructor(private readonly voice: Pick<DraftVoice, 'speak' | 'engineName'> | null) {}

  async estimates(scripts: readonly SpeechScript[]): Promise<SpeechEstimates> {
    const engine = this.voice?.engineName() ?? null;
    const groups = new Map<string, SpeechScript[]>();
    for (const script of scripts) {
      const key = groupKey(script.voiceId, script.rate);
      const group = groups.get(key);
      if (group) group.push(script);
      else groups.set(key, [script]);
    }
    const found = new Map<string, SpeechLine | null>();
    if (engine) {
      for (const [key, group] of groups) {
        if (!this.lines.has(key))
          this.lines.set(
            key,
            this.calibrate(group).catch(() => null),
          );
        found.set(key, await (this.lines.get(key) as Promise<SpeechLine | null>));
      }
    }
    const spoken = [...found.values()].some((line) => line !== null);
    return {
      estimate: (text, voiceId, rate) => {
        const line = found.get(groupKey(voiceId, rate));
        return line ? speechMs(text, line) : wordsEstimateMs(text, rate);
      },
      how: spoken
        ? `Speech lengths are estimates: each voice and speed was spoken by the draft voice (${engine}) and the rows' lengths read from it.`
        : 'Speech lengths are rough estimates from the number of words (no draft voice, espeak-ng, is installed).',
    };
  }

  /** The group's shortest and longest scripts spoken, and a long sample when they are about as long. */
  private async calibrate(group: readonly SpeechScript[]): Promise<SpeechLine | null> {
    const voice = this.voice;
    if (!voice) return null;
    const sorted = [...group].sort((a, b) => a.text.length - b.text.length);
    const texts = new Set([sorted[0].text, clip(sorted[sorted.length - 1].text)]);
    const lengths = [...texts].map((t) => t.trim().length);
    if (Math.max(...lengths) - Math.min(...lengths) < 40) texts.add(LONG_SAMPLE);
    const samples: SpeechSample[] = [];
    const { voiceId, rate } = group[0];
    for (const text of texts) {
      const spoken = await voice.speak(text, voiceId, parseRate(rate));
      samples.push({ chars: text.trim().length, ms: await wavDurationMs(spoken.path) });
    }
    return fitSpeechLine(samples);
  }
}

const groupKey = (voiceId: string, rate: string): string => JSON.stringify([voiceId, rate]);

/** At most MAX_SAMPLE_CHARS, cut at a word. */
function clip(text: string): string {
  if (text.length <= MAX_SAMPLE_CHARS) return text;
  const cut = text.slice(0, MAX_SAMPLE_CHARS);
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_SAMPLE_CHARS / 2));
}

/** A PCM WAV's length from its header and size (espeak-ng writes one; no ffprobe needed). */
export async function wavDurationMs(path: string): Promise<number> {
  const file = await open(path, 'r');
  try {
    const header = Buffer.alloc(4096);
    const { bytesRead } = await file.read(header, 0, header.length, 0);
    if (bytesRead < 44 || header.toString('ascii', 0, 4) !== 'RIFF' || header.toString('ascii', 8, 12) !== 'WAVE')
      throw new Error(`${path} is not a WAV file`);
    const byteRate = header.readUInt32LE(28);
    const at = header.indexOf('data', 12, 'ascii');
    if (byteRate === 0 || at < 0) throw new Error(`${path} has no sound data`);
    const size = (await stat(path)).size;
    return Math.round(((size - (at + 8)) / byteRate) * 1000);
  } finally {
    await file.close();
  }
}
