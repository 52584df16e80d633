import { z } from 'zod';
import type { Credentials } from '../client/auth';

/** Vault ids of connection secrets: `connection:<connection id>`. */
export const CONNECTION_SECRET_PREFIX = 'connection:';

export function secretId(connectionId: string): string {
  return `${CONNECTION_SECRET_PREFIX}${connectionId}`;
}

/** The origin (scheme, host, port) of an address: what a secret is bound to. Null if unparsable. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const forOrigin = { origin: z.string().optional() };
const credentialsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('api-key'), apiKey: z.string().min(1), ...forOrigin }),
  z.object({
    kind: z.literal('client-credentials'),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    ...forOrigin,
  }),
]);

/** Credentials as kept in a vault, with the origin they were entered (or declared) for. */
export function encodeCredentials(credentials: Credentials, origin?: string | null): string {
  return JSON.stringify(origin ? { ...credentials, origin } : credentials);
}

/**
 * Reads what encodeCredentials wrote; a bare string (an older or hand-written entry) is an API key.
 * With `origin`, credentials bound to another origin read as none: a secret goes only where it was
 * entered for (entries from before the binding carry no origin and stay with their connection).
 */
export function decodeCredentials(stored: string, origin?: string | null): Credentials | undefined {
  let decoded: (Credentials & { origin?: string }) | undefined;
  try {
    const parsed = credentialsSchema.safeParse(JSON.parse(stored));
    if (parsed.success) decoded = parsed.data;
  } catch {
    // not JSON: fall through
  }
  if (!decoded) return stored.trim() ? { kind: 'api-key', apiKey: stored.trim() } : undefined;
  if (origin !== undefined && decoded.origin !== undefined && decoded.origin !== origin) return undefined;
  const credentials = { ...decoded };
  delete credentials.origin;
  return credentials;
}
