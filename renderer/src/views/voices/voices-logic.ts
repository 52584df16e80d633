import {
  MAX_INPUT_WORDS,
  countWords,
  voiceCloneBodySchema,
  type TtsCreateBody,
  type VoiceCloneBody,
} from '@common/api';
import { isAudioKind, JOB_KINDS, type CatalogueVoice, type JobView } from '@common/bridge';
import type { JobQuerySpec } from '@/stores/job-query';

export { MAX_INPUT_WORDS, countWords };

export type VoiceSource = 'all' | 'official' | 'mine' | 'favourites';

export interface VoiceFilter {
  search: string;
  source: VoiceSource;
  gender: string | null;
  accent: string | null;
}

/** The voices that match a filter; every word of the search must appear in the voice's text fields. */
export function filterVoices(
  voices: readonly CatalogueVoice[],
  filter: VoiceFilter,
  favourites: readonly string[],
): CatalogueVoice[] {
  const words = filter.search.toLowerCase().split(/\s+/u).filter(Boolean);
  return voices.filter((v) => {
    if (filter.source === 'official' && v.from !== 3) return false;
    if (filter.source === 'mine' && v.from !== 4) return false;
    if (filter.source === 'favourites' && !favourites.includes(v.voice_id)) return false;
    if (filter.gender && v.gender !== filter.gender) return false;
    if (filter.accent && v.accent !== filter.accent) return false;
    const hay = `${v.name} ${v.voice_id} ${v.gender} ${v.accent} ${v.useCase} ${v.description}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** Distinct non-empty values of a field, sorted, for a filter's choices. */
export function distinct(voices: readonly CatalogueVoice[], field: 'gender' | 'accent'): string[] {
  return [...new Set(voices.map((v) => v[field]).filter((x) => x !== ''))].sort((a, b) => a.localeCompare(b));
}

export const rateText = (percent: number): string => `${Math.round(Math.min(100, Math.max(0, percent)))}%`;

export interface ScriptCounts {
  words: number;
  characters: number;
  overLimit: boolean;
}

export function scriptCounts(text: string): ScriptCounts {
  const words = countWords(text);
  return { words, characters: text.length, overLimit: words > MAX_INPUT_WORDS };
}

/** Why a speech request cannot be sent yet, or the body to send. Checked before anything leaves the page. */
export function checkTts(
  text: string,
  voiceId: string | null,
  ratePercent: number,
): { ok: true; body: TtsCreateBody } | { ok: false; reasons: string[] } {
  const reasons: string[] = [];
  const counts = scriptCounts(text);
  if (counts.words === 0) reasons.push('The script is empty: write what the voice should say.');
  if (counts.overLimit)
    reasons.push(
      `The script has ${counts.words.toLocaleString('en')} words; the service takes at most ${MAX_INPUT_WORDS.toLocaleString('en')} per request.`,
    );
  if (!voiceId) reasons.push('No voice is chosen: pick one in the library.');
  if (reasons.length) return { ok: false, reasons };
  return { ok: true, body: { input_text: text, voice_id: voiceId!, rate: rateText(ratePercent) } };
}

/** The clone request, checked with the interface's own schema (including "voice_id or voice_url must be provided"). */
export function checkClone(
  sample: string,
  text: string,
  ratePercent: number,
): { ok: true; body: VoiceCloneBody } | { ok: false; reasons: string[] } {
  const draft: Record<string, string> = { input_text: text, rate: rateText(ratePercent) };
  if (sample.trim()) draft.voice_url = sample.trim();
  const parsed = voiceCloneBodySchema.safeParse(draft);
  if (parsed.success) return { ok: true, body: parsed.data };
  return { ok: false, reasons: parsed.error.issues.map((i) => i.message) };
}

/** A speech or clone job as the recent list shows it, read from the job ledger (nothing kept here). */
export interface RecentVoiceover {
  job: JobView;
  script: string;
  voice: string;
  rate: string;
}

/** How many voiceovers the recent list shows. */
export const RECENT_VOICEOVERS_SHOWN = 20;

/** Made in the Voices workspace (speech, or a clone's sample): not a scene's, a batch's or a campaign's step. */
const madeHere = (job: JobView): boolean => job.purpose.type === 'plain' || job.purpose.type === 'voice-clone';

/** The recent list's question of the host: the newest jobs whose result is a sound, made here. */
export const RECENT_VOICEOVERS: JobQuerySpec = {
  name: 'recent-voiceovers',
  filter: { kinds: JOB_KINDS.filter(isAudioKind) },
  limit: RECENT_VOICEOVERS_SHOWN,
  keep: madeHere,
};

export function recentVoiceovers(
  jobs: readonly JobView[],
  voiceName: (id: string) => string,
  limit = RECENT_VOICEOVERS_SHOWN,
): RecentVoiceover[] {
  const out: RecentVoiceover[] = [];
  for (const job of jobs) {
    // Every kind whose result is a sound (the kind registry says) is a voiceover.
    if (!isAudioKind(job.kind)) continue;
    if (!madeHere(job)) continue;
    const req = (job.request ?? {}) as Partial<Record<'input_text' | 'voice_id' | 'voice_url' | 'rate', string>>;
    const voice = req.voice_id
      ? voiceName(req.voice_id)
      : `Clone of ${req.voice_url?.split(/[?#]/)[0].split('/').pop() ?? 'a sample'}`;
    out.push({ job, script: req.input_text ?? '', voice, rate: req.rate ?? '50%' });
    if (out.length >= limit) break;
  }
  return out;
}
