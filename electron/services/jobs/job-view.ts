import type { JobError, JobRecord, JobView } from '../../common/bridge/jobs';
import { isServiceError } from '../client/errors';
import { isActivePhase } from '../../common/jobs/phases';
import { RecordStatus } from '../../common/api';

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
      return record.remoteStatus === RecordStatus.Processing ? 0.5 : 0.05;
    case 'processing': {
      const elapsed = Math.max(0, now - record.updatedAt);
      return Math.min(0.95, 0.1 + 0.85 * (1 - Math.exp(-elapsed / 90_000)));
    }
  }
}

const views = new WeakMap<JobRecord, JobView>();

/**
 * The view of an ended job's record, made once: a row engine lists the ledger on every step, and a
 * worker's ledger holds tens of thousands of ended jobs. An ended job's record is replaced, never changed
 * in place (a followed one counts its polls in place), so its view stays true.
 */
export function jobViewOf(record: JobRecord, now: number): JobView {
  if (record.phase !== 'completed' && record.phase !== 'failed') return toJobView(record, now);
  let view = views.get(record);
  if (!view) views.set(record, (view = toJobView(record, now)));
  return view;
}

/** What the page is sent of a record: each field named, so a new ledger field stays in the ledger. */
export function toJobView(record: JobRecord, now: number): JobView {
  return {
    id: record.id,
    kind: record.kind,
    phase: record.phase,
    remoteId: record.remoteId,
    remoteStatus: record.remoteStatus,
    connectionId: record.connectionId,
    connectionName: record.connectionName,
    projectId: record.projectId,
    summary: record.summary,
    request: record.request,
    answer: record.answer,
    createdAt: record.createdAt,
    finishedAt: record.finishedAt,
    expiresAt: record.expiresAt,
    resultUrl: record.resultUrl,
    costEstimate: record.costEstimate,
    chargedCredits: record.chargedCredits,
    chargeSource: record.chargeSource ?? null,
    error: record.error,
    purpose: record.purpose,
    polls: record.polls,
    progress: jobProgress(record, now),
  };
}

/** The mean progress of the active jobs (the taskbar's bar), or null when none is active. */
export function overallProgress(records: Iterable<JobRecord>, now: number): number | null {
  let sum = 0;
  let count = 0;
  for (const record of records) {
    if (!isActivePhase(record.phase)) continue;
    sum += jobProgress(record, now);
    count += 1;
  }
  return count === 0 ? null : sum / count;
}

/** A job the service reported failed (status 4), with its reason when it gave one. */
export function reportedFailure(failReason: string | null | undefined): JobError {
  return {
    code: null,
    endpoint: null,
    message: failReason ?? 'The service reported the job as failed (status 4).',
    explanation: failReason
      ? `The service could not finish this job: ${failReason}`
      : 'The service could not finish this job. Check the inputs (URLs reachable, formats supported) and try again.',
  };
}

const STUDIO_STOPPED =
  'The studio stopped (closed or crashed) after writing this job down and before the service answered.';
/** A queued run's row taken over from a worker that stopped mid-send (rows/queue/create-intents.ts). */
export const WORKER_STOPPED =
  "Another worker of this run set out to send this job and stopped (killed or crashed) before the service's answer reached it.";

/** Why a create's outcome is unknown, and how the user can find out; `stopped`: who stopped, where no error says. */
export function describeUnknownOutcome(cause: unknown, stopped = STUDIO_STOPPED): JobError {
  const what =
    cause === null
      ? stopped
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

/** How many of the records are still under way. */
export function countActive(records: Iterable<JobRecord>): number {
  let n = 0;
  for (const record of records) if (isActivePhase(record.phase)) n += 1;
  return n;
}
