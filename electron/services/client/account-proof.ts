import { createHmac } from 'node:crypto';
import type { Credentials } from './auth';

/** Which service and account a run belongs to, in a form that shows no secret. */
export interface RunAccount {
  /** The service's origin (scheme, host and port). */
  origin: string;
  /** A keyed hash of the credentials and the run's id: equal only for the same credentials. */
  proof: string;
  /**
   * Where the run's links go (a queued run records it; a worker's is where its pictures would go). Never a
   * secret: a bucket's kind, address and name. Null or absent: the run has no storage of its own (its
   * service's sandbox serves its files, or it has none that could serve a queue), and a worker's own
   * storage is only checked to be one the service reaches.
   */
  storage?: RunStorage | null;
}

/** A storage by what makes it that storage, and nothing of its keys. */
export interface RunStorage {
  kind: 'sandbox' | 's3';
  /** The sandbox's origin, or the bucket's endpoint (`aws:<region>` for AWS S3 itself). */
  endpoint: string;
  /** The bucket (an S3 storage). */
  bucket?: string;
}

/** Whether two storages are one: the same kind, address and bucket. */
export function sameStorage(a: RunStorage | null | undefined, b: RunStorage | null | undefined): boolean {
  return !!a && !!b && a.kind === b.kind && a.endpoint === b.endpoint && (a.bucket ?? '') === (b.bucket ?? '');
}

/**
 * Why a worker whose pictures go to `own` may not make the rows of a run whose links go to `run` (null:
 * it may). A run that records no storage, or its service's sandbox, asks nothing of its workers' storage.
 */
export function storageMismatch(run: RunStorage | null | undefined, own: RunStorage | null | undefined): string | null {
  if (!run || run.kind === 'sandbox' || sameStorage(run, own)) return null;
  return `the run's links go to ${storageShown(run)}, and the pictures this worker renders would go to ${storageShown(own)}`;
}

/** A storage as a sentence names it. */
export function storageShown(storage: RunStorage | null | undefined): string {
  if (!storage) return 'no storage of its own';
  return storage.kind === 's3'
    ? `the bucket ${storage.bucket} at ${storage.endpoint}`
    : `the sandbox at ${storage.endpoint}`;
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
