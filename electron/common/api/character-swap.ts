import { z } from 'zod';
import { envelope, httpUrl, int, optionalWebhook, record, recordStatusSchema } from './common';

export const CHARACTER_SWAP_RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export type CharacterSwapResolution = (typeof CHARACTER_SWAP_RESOLUTIONS)[number];
export const CHARACTER_SWAP_MODES = ['animate', 'replace'] as const;
export const CHARACTER_SWAP_LIMITS = { minSeconds: 1, maxSeconds: 120, maxPrompt: 500 } as const;

/** Credits per started 5-second increment. */
export const CHARACTER_SWAP_CREDITS: Record<CharacterSwapResolution, number> = { '480p': 5, '720p': 10, '1080p': 15 };

export function characterSwapCost(seconds: number, resolution: CharacterSwapResolution): number {
  return Math.ceil(seconds / 5) * CHARACTER_SWAP_CREDITS[resolution];
}

export const characterSwapBodySchema = z.object({
  image: httpUrl('image'),
  video: httpUrl('video'),
  duration: z
    .number({ error: 'duration must be a number of seconds' })
    .min(CHARACTER_SWAP_LIMITS.minSeconds, { error: 'duration must be between 1 and 120 seconds' })
    .max(CHARACTER_SWAP_LIMITS.maxSeconds, { error: 'duration must be between 1 and 120 seconds' })
    .optional(),
  resolution: z.enum(CHARACTER_SWAP_RESOLUTIONS, { error: 'resolution must be 480p, 720p or 1080p' }).optional(),
  mode: z.enum(CHARACTER_SWAP_MODES, { error: 'mode must be animate or replace' }).optional(),
  prompt: z
    .string({ error: 'prompt must be a string' })
    .max(CHARACTER_SWAP_LIMITS.maxPrompt, { error: 'prompt must be at most 500 characters' })
    .optional(),
  webhookurl: optionalWebhook('webhookurl'),
  model_name: z.string({ error: 'model_name must be a string' }).optional(),
});
export type CharacterSwapBody = z.infer<typeof characterSwapBodySchema>;

export const characterSwapRecordSchema = record({
  _id: z.string(),
  create_time: int().optional(),
  uid: int().optional(),
  team_id: z.string().optional(),
  status: recordStatusSchema,
  video_duration: z.number().optional(),
  deduction_credit: z.number().optional(),
  resolution: z.string().optional(),
  file_name: z.string().optional(),
  image_url: z.string().optional(),
  video_url: z.string().optional(),
  prompt: z.string().optional(),
  mode: z.string().optional(),
  model_name: z.string().optional(),
  webhookUrl: z.string().optional(),
});
export type CharacterSwapRecord = z.infer<typeof characterSwapRecordSchema>;
export const characterSwapResponseSchema = envelope(characterSwapRecordSchema);
