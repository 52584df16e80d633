import type { JobError, JobRecord } from '../../common/bridge/jobs';
import { isServiceError } from '../client/errors';

export { isActivePhase as isActive, isFinalPhase as isFinal } from '../../common/jobs/phases';

/**
 * An estimate for the progress bar: the service reports a status only, so processing time is shown
 * as an approach towards 95% that slows the longer a job takes.
 */
export function jobProgress(record: JobRecord, now: number): number {
  switch (record.phase) {
    case 'completed':
    case 'failed':
      return 1;
    case 'submitting':
    case 'outcome-unknown':
      return 0;
    case 'queued':
      return 0.05;
    case 'stalled':
      return record.remoteStatus === 2 ? 0.5 : 0.05;
    case 'processing': {
      const elapsed = Math.max(0, now - record.updatedAt);
      return Math.min(0.95, 0.1 + 0.85 * (1 - Math.exp(-elapsed / 90_000)));
    }
  }
}

/** Why a create's outcome is unknown, and how the user can find out. */
export function describeUnknownOutcome(cause: unknown): JobError {
  const what = cause === null
    ? 'The studio stopped (closed or crashed) after writing this job down and before the service answered.'
    : isServiceError(cause)
      ? cause.explanation
      : `The service's answer could not be read (${cause instanceof Error ? cause.message : String(cause)}).`;
  const explanation = `${what} The service may or may not have created (and charged) this job, and it offers no way to ask. The studio will not send it again by itself. Check the jobs and credit history in the service's dashboard (or watch the connection's webhook); if the job is not there, send the request again.`;
  return {
    code: isServiceError(cause) ? (cause.code ?? null) : null,
    endpoint: isServiceError(cause) ? cause.endpoint : null,
    message: cause instanceof Error ? cause.message : 'Outcome unknown',
    explanation,
  };
}
