import { z } from 'zod';
import type { Credentials } from '../client/auth';

/** Vault ids of connection secrets: `connection:<connection id>`. */
export const CONNECTION_SECRET_PREFIX = 'connection:';

export function secretId(connectionId: string): string {
  return `${CONNECTION_SECRET_PREFIX}${connectionId}`;
}

const credentialsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('api-key'), apiKey: z.string().min(1) }),
  z.object({ kind: z.literal('client-credentials'), clientId: z.string().min(1), clientSecret: z.string().min(1) }),
]);

export function encodeCredentials(credentials: Credentials): string {
  return JSON.stringify(credentials);
}

/** Reads what encodeCredentials wrote; a bare string (an older or hand-written entry) is an API key. */
export function decodeCredentials(stored: string): Credentials | undefined {
  try {
    const parsed = credentialsSchema.safeParse(JSON.parse(stored));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: fall through
  }
  return stored.trim() ? { kind: 'api-key', apiKey: stored.trim() } : undefined;
}
