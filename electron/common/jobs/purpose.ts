import { z } from 'zod';

/**
 * Why a job was made: what should happen when it ends. Stored in the ledger with the job, so the
 * reactor in services acts on it once, even after a crash and a restart.
 */
export const JobPurpose = z.discriminatedUnion('type', [
  z.object({ type: z.literal('plain') }),
  z.object({
    type: z.literal('scene-voiceover'),
    projectId: z.string().min(1).max(200),
    sceneId: z.string().min(1).max(200),
    /** voiceoverHash() of the script, voice and rate the audio was made from. */
    scriptHash: z.string().min(1).max(200),
  }),
  z.object({
    type: z.literal('batch-row'),
    batchId: z.string().min(1).max(200),
    row: z.number().int().nonnegative(),
    /** Which take of the row (a row made again sends its next); jobs written before takes were kept are take 0. */
    take: z.number().int().nonnegative().optional(),
  }),
  z.object({
    type: z.literal('campaign-row'),
    campaignId: z.string().min(1).max(200),
    row: z.number().int().nonnegative(),
    /** A row's chain: its scenes' voiceovers (by scene), then its video. */
    step: z.enum(['voiceover', 'video']),
    sceneId: z.string().min(1).max(200).optional(),
    /** A video in another of the template's formats ("1080x1920"); absent: the format being edited. */
    format: z
      .string()
      .regex(/^\d{1,5}x\d{1,5}$/)
      .optional(),
    /** Counts the row's retries: a row made again sends new jobs, its earlier ones stay in the ledger. */
    take: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('avatar-upload') }),
  z.object({ type: z.literal('voice-clone') }),
  z.object({ type: z.literal('archive') }),
]);
export type JobPurpose = z.infer<typeof JobPurpose>;
export type PurposeType = JobPurpose['type'];

/**
 * A short, stable fingerprint of a voiceover's script, voice and rate (FNV-1a, hex): equal only when
 * the audio would be the same, so a finished job never lands on a scene whose script changed since.
 */
export function voiceoverHash(voice: { text: string; voiceId: string; rate: string }): string {
  let hash = 0x811c9dc5;
  for (const ch of `${voice.voiceId}\u0000${voice.rate}\u0000${voice.text}`) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `v1-${hash.toString(16).padStart(8, '0')}-${voice.text.length}`;
}
