import { createHash } from 'node:crypto';
import type { JobError, JobKind, JobPhase } from '../../common/bridge/jobs';
import type { ServiceError } from '../client/errors';
import type { JobPurpose } from '../../common/jobs/purpose';
import { stableStringify } from './stable-json';

/** Avatar uploads and voice clones are for the catalogue even when the caller names no purpose. */
export function defaultPurpose(kind: JobKind): JobPurpose {
  return kind === 'avatar-upload' ? { type: 'avatar-upload' } : kind === 'voice-clone' ? { type: 'voice-clone' } : { type: 'plain' };
}

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
