import { createHash } from 'node:crypto';
import type { JobError, JobKind, JobPhase } from '../../common/bridge/jobs';
import type { ServiceError } from '../client/errors';
import { stableStringify } from './stable-json';

export function phaseOf(status: number): JobPhase {
  if (status === 3) return 'completed';
  if (status === 4) return 'failed';
  if (status === 2) return 'processing';
  return 'queued';
}

/** The same kind, connection and body give the same hash, whatever the key order. */
export function hashRequest(kind: JobKind, connectionId: string, body: Record<string, unknown>): string {
  return createHash('sha256').update(stableStringify({ kind, connectionId, body })).digest('hex').slice(0, 32);
}

export function serviceErrorToJob(error: ServiceError): JobError {
  return { code: error.code ?? null, endpoint: error.endpoint, message: error.message, explanation: error.explanation };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
