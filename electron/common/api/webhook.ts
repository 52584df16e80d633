import { z } from 'zod';
import { int } from './common';

/**
 * The document does not show the callback payload. The sandbox POSTs this JSON when a record reaches
 * 3 or 4 (see README, "Sandbox"); `data` is the record exactly as its info operation returns it.
 */
export const WEBHOOK_KINDS = ['audio', 'video', 'avatar', 'character_swap'] as const;
export const webhookPayloadSchema = z.looseObject({
  event: z.enum(['completed', 'failed']),
  kind: z.enum(WEBHOOK_KINDS),
  _id: z.string(),
  status: z.union([z.literal(3), z.literal(4)]),
  url: z.string(),
  reason: z.string().optional(),
  timestamp: int(),
  data: z.looseObject({ _id: z.string() }),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
