/**
 * How text is spoken without the service: by espeak-ng, in the sandbox (its official voices and every
 * speech job) and in the editor's local preview (a draft voice standing in for the service's). Both
 * take the interface's speed the same way, so a preview lasts as long as the sandbox's result.
 */

/** espeak-ng voice with variant ("en-us+f3") and pitch 0..99 (50 is the voice's own). */
export interface EspeakVoice {
  espeak: string;
  pitch: number;
}

/** The speed the interface's voices take when none is given (`rate` "50%"); talking avatars take none. */
export const DEFAULT_SPEECH_RATE = 0.5;

/** `rate` 0%..100% → espeak-ng words per minute: 0% = 80, 50% = 180 (about normal), 100% = 280. */
export function wordsPerMinute(rate: number): number {
  return Math.round(80 + Math.min(1, Math.max(0, rate)) * 200);
}

/** espeak-ng's language for the service's accent words; English as the American default. */
const ACCENTS: [RegExp, string][] = [
  [/scot/i, 'en-gb-scotland'],
  [/\brp\b|received/i, 'en-gb-x-rp'],
  [/brit|english|london|irish|welsh/i, 'en-gb'],
  [/caribbean|jamaic/i, 'en-029'],
  [/spanish|mexic|latin/i, 'es'],
  [/french/i, 'fr'],
  [/german/i, 'de'],
  [/italian/i, 'it'],
  [/portugu|brazil/i, 'pt'],
  [/dutch/i, 'nl'],
  [/chinese|mandarin/i, 'cmn'],
  [/japanese/i, 'ja'],
  [/korean/i, 'ko'],
  [/hindi/i, 'hi'],
  [/arabic/i, 'ar'],
  [/russian/i, 'ru'],
];

/**
 * The draft voice closest to a voice of the service's list: its accent's language, its gender's
 * variant (espeak-ng's own voice when the gender is not given). Only a stand-in: it never sounds like
 * the service's voice, and says so wherever it is heard.
 */
export function draftVoiceFor(
  voice: { gender?: string | null; accent?: string | null } | null,
): EspeakVoice & { language: string; gender: 'female' | 'male' | null } {
  const accent = voice?.accent ?? '';
  const language = ACCENTS.find(([pattern]) => pattern.test(accent))?.[1] ?? 'en-us';
  const gender = /female|woman|\bf\b/i.test(voice?.gender ?? '')
    ? 'female'
    : /male|\bman\b|\bm\b/i.test(voice?.gender ?? '')
      ? 'male'
      : null;
  const variant = gender === 'female' ? '+f3' : gender === 'male' ? '+m3' : '';
  return { espeak: `${language}${variant}`, pitch: 50, language, gender };
}
