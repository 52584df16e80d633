import { z } from 'zod';
import { int } from './common';

/**
 * The service's callback: it POSTs `{ signature, dataEncrypt, timestamp, nonce }` to the job's
 * webhook URL. `dataEncrypt` is AES-CBC (PKCS#7, base64) of the event JSON with the client secret as
 * key and the first 16 bytes of the client id as IV; `signature` is the SHA-1 (hex) of
 * `[clientId, timestamp, nonce, dataEncrypt]` sorted and joined. The crypto lives in
 * electron/services/webhooks (it needs Node); the sandbox sends exactly this.
 */
export const webhookEnvelopeSchema = z.object({
  signature: z
    .string({ error: 'signature must be a string' })
    .regex(/^[0-9a-f]{40}$/i, { error: 'signature must be 40 hex digits (SHA-1)' }),
  dataEncrypt: z.string({ error: 'dataEncrypt must be a string' }).min(1, { error: 'dataEncrypt cannot be empty' }),
  timestamp: int(),
  nonce: z.string({ error: 'nonce must be a string' }),
});
export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;

/**
 * `type` names as the service's webhook docs list them. Kinds the docs do not name use the closest:
 * avatar video and talking avatar "avatar" with the avatar upload, character swap "faceswap".
 */
export const WEBHOOK_TYPES = [
  'faceswap',
  'image',
  'audio',
  'talking photo',
  'video translate',
  'background change',
  'avatar',
  'lipsync',
] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** The decrypted event: status 2 (processing), 3 (completed, `url` is the result) or 4 (failed). */
export const webhookEventSchema = z.looseObject({
  _id: z.string(),
  status: z.union([z.literal(2), z.literal(3), z.literal(4)]),
  type: z.string(),
  url: z.string(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
