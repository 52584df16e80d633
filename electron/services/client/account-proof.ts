import { createHmac } from 'node:crypto';
import type { Credentials } from './auth';

/** Which service and account a run belongs to, in a form that shows no secret. */
export interface RunAccount {
  /** The service's origin (scheme, host and port). */
  origin: string;
  /** A keyed hash of the credentials and the run's id: equal only for the same credentials. */
  proof: string;
}

/**
 * A run's account as these credentials see it. The hash is keyed with the credential itself (the API key,
 * or the client id the secret belongs to) and salted with the run's id, so it tells nothing about the key
 * and cannot be matched across runs; a process with other credentials (another account, another
 * sandbox, its own built-in one) gets another value. The origin is not in it: the same credentials may
 * reach their service through another address (a proxy, a load balancer) and still pay the same account.
 * Null without credentials: such a process serves no account.
 */
export function runAccount(baseUrl: string, credentials: Credentials | undefined, runId: string): RunAccount | null {
  if (!credentials) return null;
  const origin = new URL(baseUrl).origin;
  const key = credentials.kind === 'api-key' ? credentials.apiKey : `client:${credentials.clientId}`;
  const proof = createHmac('sha256', key).update(`avatar-studio run account\n${runId}`).digest('hex');
  return { origin, proof: proof.slice(0, 32) };
}
