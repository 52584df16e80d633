import { createCipheriv, createDecipheriv, createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { webhookEnvelopeSchema, webhookEventSchema, type WebhookEnvelope, type WebhookEvent } from '../../common/api';

export interface WebhookCredentials {
  clientId: string;
  clientSecret: string;
}

/** Thrown when a callback cannot be verified or read; the message says which part failed. */
export class WebhookError extends Error {}

const AES_BY_KEY_LENGTH: Record<number, string> = { 16: 'aes-128-cbc', 24: 'aes-192-cbc', 32: 'aes-256-cbc' };

function cipherParts({ clientId, clientSecret }: WebhookCredentials): { algorithm: string; key: Buffer; iv: Buffer } {
  const key = Buffer.from(clientSecret, 'utf8');
  const algorithm = AES_BY_KEY_LENGTH[key.length];
  if (!algorithm)
    throw new WebhookError(`The client secret is ${key.length} bytes; webhook encryption needs 16, 24 or 32`);
  const iv = Buffer.from(clientId, 'utf8').subarray(0, 16);
  if (iv.length < 16)
    throw new WebhookError(`The client id is ${iv.length} bytes; webhook encryption uses its first 16 bytes as IV`);
  return { algorithm, key, iv };
}

/** SHA-1 (hex) of the four values sorted as strings and joined, as the service signs. */
export function webhookSignature(clientId: string, timestamp: number, nonce: string, dataEncrypt: string): string {
  return createHash('sha1')
    .update([clientId, String(timestamp), nonce, dataEncrypt].sort().join(''))
    .digest('hex');
}

/** The callback body the service posts for `event`. */
export function sealWebhook(
  event: WebhookEvent,
  credentials: WebhookCredentials,
  timestamp: number,
  nonce = String(randomInt(1000, 10000)),
): WebhookEnvelope {
  const { algorithm, key, iv } = cipherParts(credentials);
  const cipher = createCipheriv(algorithm, key, iv);
  const dataEncrypt = Buffer.concat([cipher.update(JSON.stringify(event), 'utf8'), cipher.final()]).toString('base64');
  return {
    signature: webhookSignature(credentials.clientId, timestamp, nonce, dataEncrypt),
    dataEncrypt,
    timestamp,
    nonce,
  };
}

/** Verifies a callback body's signature, decrypts it and checks the event's fields. */
export function openWebhook(body: unknown, credentials: WebhookCredentials): WebhookEvent {
  const envelope = webhookEnvelopeSchema.safeParse(body);
  if (!envelope.success)
    throw new WebhookError(
      `Not a webhook callback: ${envelope.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`,
    );
  const { signature, dataEncrypt, timestamp, nonce } = envelope.data;
  const expected = Buffer.from(webhookSignature(credentials.clientId, timestamp, nonce, dataEncrypt), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new WebhookError(
      'The signature does not match: the callback was not sent with these credentials, or was changed on the way',
    );
  }
  const { algorithm, key, iv } = cipherParts(credentials);
  let text: string;
  try {
    const decipher = createDecipheriv(algorithm, key, iv);
    text = Buffer.concat([decipher.update(Buffer.from(dataEncrypt, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new WebhookError('dataEncrypt could not be decrypted with this client secret and client id');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhookError('dataEncrypt decrypted to something that is not JSON');
  }
  const event = webhookEventSchema.safeParse(json);
  if (!event.success)
    throw new WebhookError(
      `The decrypted event is not one the service sends: ${event.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return event.data;
}
