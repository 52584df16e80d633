import type { JobScope } from '../jobs/job-scope';
import type { JobView } from '../../common/bridge/jobs';
import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import { rowProject } from './row-project';
import { voiceoverRequest } from './row-steps';

/**
 * A row's voiceovers are steps of their own: a scene's voiceover is made from its text, its voice and
 * its speed, nothing else, so one the service made for any campaign row (a row since changed in another
 * column, a row of a campaign cancelled half way, a row renamed to keep both files) is the same sound.
 * The ledger knows every one that completed and when its link stops working; a start takes those still
 * usable instead of paying for them again, and its price question counts only the ones missing.
 */

/** A voiceover's link must work this long after the start: the row's video still has to be sent with it. */
const VOICE_MARGIN_MS = 60 * 60_000;

type VoiceBody = { input_text?: unknown; voice_id?: unknown; rate?: unknown };

/** What a voiceover is made from, as one key (the body's other fields, a callback say, do not change it). */
const voiceKey = (body: VoiceBody): string => JSON.stringify([body.input_text, body.voice_id, body.rate]);

/** Where paidVoiceovers looks: the campaigns' voiceovers whose links last past the margin (not every job). */
export function reusableVoiceovers(now: number): JobScope {
  return { kinds: ['tts'], purposeTypes: ['campaign-row'], phases: ['completed'], expiresAfter: now + VOICE_MARGIN_MS };
}

/** The campaign voiceovers the ledger holds that completed and still work, by what they say. */
export function paidVoiceovers(jobs: readonly JobView[], now: number): Map<string, string> {
  const paid = new Map<string, { url: string; expiresAt: number }>();
  for (const job of jobs) {
    if (job.kind !== 'tts' || job.purpose.type !== 'campaign-row') continue;
    if (job.phase !== 'completed' || !job.resultUrl || !job.request || typeof job.request !== 'object') continue;
    const expiresAt = job.expiresAt ?? Number.POSITIVE_INFINITY;
    if (expiresAt <= now + VOICE_MARGIN_MS) continue;
    // Of two of the same, the one that lasts longer.
    const key = voiceKey(job.request as VoiceBody);
    const known = paid.get(key);
    if (!known || known.expiresAt < expiresAt) paid.set(key, { url: job.resultUrl, expiresAt });
  }
  return new Map([...paid].map(([key, { url }]) => [key, url]));
}

/**
 * A row about to be sent, with every voiceover it lacks that `paid` already has: a row whose voiceovers
 * are all there goes straight to its video. Only an avatar video's rows send voiceovers of their own.
 */
export function withPaidVoiceovers(
  record: CampaignRecord,
  row: CampaignRowRecord,
  paid: ReadonlyMap<string, string>,
): CampaignRowRecord {
  if (paid.size === 0 || record.target !== 'avatar-video' || row.state !== 'pending') return row;
  const voiceovers = { ...row.voiceovers };
  let found = 0;
  for (const scene of rowProject(record, row).scenes) {
    if (scene.voice?.kind !== 'tts' || scene.voice.audioUrl || voiceovers[scene.id]) continue;
    const url = paid.get(voiceKey(voiceoverRequest(scene).body as VoiceBody));
    if (!url) continue;
    voiceovers[scene.id] = url;
    found += 1;
  }
  return found === 0 ? row : { ...row, voiceovers };
}
