import type { Project } from '../composition/document';
import { overrunText, voiceOverruns } from '../composition/scene-length';
import { wordsPerMinute } from '../speech/draft-voice';
import { parseRate } from '../api/common';
import { HOW_TO_FIT_VOICE, TEMPLATE_VARIABLE } from '../composition/voice-follow';
import { variableKey, type CampaignTemplate, type RowValues } from './variables';

/**
 * Whether each row's voice fits its scenes, before anything is paid: each script's speech length is
 * estimated (a straight line of characters, calibrated on the draft voice per voice and speed), and a
 * fixed-length scene it overruns holds the row. So does a value far longer than anything that belongs
 * inside a sentence (a whole page pasted into a name cell). Pure: the host brings the calibration.
 */

/** Milliseconds of speech for a text: `interceptMs + msPerChar × characters`. */
export interface SpeechLine {
  interceptMs: number;
  msPerChar: number;
}

/** A measured sample: a text's length in characters and its speech's in milliseconds. */
export interface SpeechSample {
  chars: number;
  ms: number;
}

/** The least-squares line through the samples (at least two of different lengths), never negative. */
export function fitSpeechLine(samples: readonly SpeechSample[]): SpeechLine | null {
  const n = samples.length;
  if (n < 2) return null;
  const meanX = samples.reduce((s, p) => s + p.chars, 0) / n;
  const meanY = samples.reduce((s, p) => s + p.ms, 0) / n;
  const sxx = samples.reduce((s, p) => s + (p.chars - meanX) ** 2, 0);
  if (sxx === 0) return null;
  const sxy = samples.reduce((s, p) => s + (p.chars - meanX) * (p.ms - meanY), 0);
  const msPerChar = Math.max(0, sxy / sxx);
  return { interceptMs: Math.max(0, meanY - msPerChar * meanX), msPerChar };
}

export function speechMs(text: string, line: SpeechLine): number {
  return Math.round(line.interceptMs + line.msPerChar * text.trim().length);
}

/**
 * Without a draft voice: the words at the speed the draft voice (and the sandbox) speaks them, plus a
 * breath at each sentence's end. Coarser, and said so.
 */
export function wordsEstimateMs(text: string, rate: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  const stops = (text.match(/[.!?;:,]+/g) ?? []).length;
  return Math.round((words * 60_000) / wordsPerMinute(parseRate(rate)) + stops * 100);
}

/** A script's estimated speech length, by its voice and speed; null when it cannot be estimated. */
export type SpeechEstimate = (text: string, voiceId: string, rate: string) => number | null;

/** Longest value that still reads as part of a sentence ("Acme Holdings of Northern Europe Ltd."). */
export const MAX_VALUE_IN_TEXT = 200;

/** Keys of variables that sit inside longer text (a name in a greeting), not alone in their field. */
export function variablesInText(template: CampaignTemplate): Set<string> {
  const texts = [template.fileName];
  for (const scene of template.project.scenes) {
    if (scene.voice?.kind === 'tts') texts.push(scene.voice.text);
    for (const element of scene.elements) {
      if (element.text?.content) texts.push(element.text.content);
      if (element.inputText) texts.push(element.inputText);
    }
  }
  const keys = new Set<string>();
  for (const text of texts) {
    const names = [...text.matchAll(TEMPLATE_VARIABLE)].map((m) => m[1]);
    if (names.length === 0 || text.replace(TEMPLATE_VARIABLE, '').trim() === '') continue;
    for (const name of names) keys.add(variableKey(name));
  }
  return keys;
}

/**
 * Why a row is held before anything is sent: each fixed scene its estimated voice overruns, and each
 * value too long to sit in its sentence. Empty when the row fits.
 */
export function rowHolds(
  project: Project,
  values: RowValues,
  inText: ReadonlySet<string>,
  estimate: SpeechEstimate,
): string[] {
  const holds: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (inText.has(key) && value.length > MAX_VALUE_IN_TEXT)
      holds.push(
        `{{${key}}} is ${value.length.toLocaleString('en-US')} characters long, far more than fits in its sentence (at most ${MAX_VALUE_IN_TEXT}): check the cell`,
      );
  }
  const lengths: Record<string, number> = {};
  for (const scene of project.scenes) {
    if (scene.voice?.kind !== 'tts' || scene.voice.audioUrl || scene.voice.text.trim() === '') continue;
    const ms = estimate(scene.voice.text, scene.voice.voiceId, scene.voice.rate);
    if (ms !== null) lengths[scene.id] = ms;
  }
  for (const overrun of voiceOverruns(project, lengths))
    holds.push(`${overrunText(project, overrun, true)} (${HOW_TO_FIT_VOICE})`);
  return holds;
}
