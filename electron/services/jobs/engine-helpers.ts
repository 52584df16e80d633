import { createHash } from 'node:crypto';
import type {
  CostEstimate,
  JobError,
  JobKind,
  JobPhase,
  JobRecord,
  JobSubmission,
  JobView,
} from '../../common/bridge/jobs';
import { isServiceError, type ServiceError } from '../client/errors';
import type { JobPurpose } from '../../common/jobs/purpose';
import { JOB_KIND_REGISTRY } from '../../common/jobs/kinds';
import { stableStringify } from './stable-json';
import { kindEntry } from './kinds';
import { Code, RecordStatus, isAuthCode } from '../../common/api';
import type { PollOutcome } from './scheduler';
import { RESULT_LIFETIME_MS, type SentCharge } from './engine-types';
import { WORKER_STOPPED, describeUnknownOutcome } from './job-view';
import { chargeAtAnswer } from './paid-gate';
import { rowOfRecord, runOf, type JobScope } from './job-scope';
import type { Price } from '../../common/jobs/cost-model';

/** The kind's own purpose when the caller names none (avatar uploads and voice clones are for the catalogue). */
export function defaultPurpose(kind: JobKind): JobPurpose {
  return { type: JOB_KIND_REGISTRY[kind].defaultPurpose };
}

export function phaseOf(status: number): JobPhase {
  if (status === RecordStatus.Completed) return 'completed';
  if (status === RecordStatus.Failed) return 'failed';
  if (status === RecordStatus.Processing) return 'processing';
  return 'queued';
}

/** The same kind, connection and body give the same hash, whatever the key order. */
export function hashRequest(kind: JobKind, connectionId: string, body: Record<string, unknown>): string {
  return createHash('sha256').update(stableStringify({ kind, connectionId, body })).digest('hex').slice(0, 32);
}

export function serviceErrorToJob(error: ServiceError): JobError {
  return { code: error.code ?? null, endpoint: error.endpoint, message: error.message, explanation: error.explanation };
}

/** A create the service refused outright: nothing was created or charged. */
export function refusedCreate(error: ServiceError): JobError {
  const refused = serviceErrorToJob(error);
  if (error.code === Code.TooFrequent)
    refused.explanation =
      'The service kept rate-limiting this account, so the studio gave up sending the job (nothing was created or charged). Send it again in a minute.';
  return refused;
}

/** What a create that did not succeed leaves on its record: refused (nothing made), or of unknown outcome. */
export function unsentCreatePatch(error: unknown, now: number): Partial<JobRecord> {
  return isServiceError(error) && !error.ambiguous && error.kind !== 'malformed'
    ? { phase: 'failed', finishedAt: now, error: refusedCreate(error) }
    : { phase: 'outcome-unknown', error: describeUnknownOutcome(error) };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The newest job with the same request hash sent within the window and not failed, if any. */
export function recentDuplicate(
  jobs: Iterable<JobRecord>,
  requestHash: string,
  now: number,
  windowMs: number,
): JobRecord | undefined {
  let newest: JobRecord | undefined;
  for (const job of jobs) {
    if (job.requestHash !== requestHash || job.phase === 'failed' || now - job.createdAt >= windowMs) continue;
    if (!newest || job.createdAt > newest.createdAt) newest = job;
  }
  return newest;
}

/** What the user is asked before the same paid request goes out twice. */
export function duplicateMessage(kindLabel: string, connectionName: string, earlier: JobRecord, now: number): string {
  const minutes = Math.max(1, Math.round((now - earlier.createdAt) / 60_000));
  const ago = minutes === 1 ? 'about a minute' : `${minutes} minutes`;
  return `The same ${kindLabel.toLowerCase()} request went to "${connectionName}" ${ago} ago (it is ${earlier.phase.replace('-', ' ')}). Sending it again starts a second paid job. Send it anyway?`;
}

/** A job about to be sent: written to the ledger before its create leaves. */
export function newJobRecord(draft: {
  id: string;
  submission: JobSubmission;
  connection: { id: string; name: string };
  summary: string;
  requestHash: string;
  request: Record<string, unknown>;
  now: number;
  deadlineAt: number;
  costEstimate: CostEstimate | null;
}): JobRecord {
  const { submission, now } = draft;
  return {
    id: draft.id,
    kind: submission.kind,
    phase: 'submitting',
    remoteId: null,
    connectionId: draft.connection.id,
    connectionName: draft.connection.name,
    projectId: submission.projectId ?? null,
    summary: draft.summary,
    requestHash: draft.requestHash,
    request: draft.request,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
    expiresAt: null,
    deadlineAt: draft.deadlineAt,
    remoteStatus: null,
    resultUrl: null,
    costEstimate: draft.costEstimate,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 0,
    purpose: submission.purpose ?? defaultPurpose(submission.kind),
    reactedAt: null,
  };
}

/** What a failed poll means for its job: ask again later, the service no longer knows it, or wait for the user. */
export type PollFailure =
  { type: 'again'; outcome: PollOutcome } | { type: 'gone'; error: JobError } | { type: 'stall'; explanation: string };

export function pollFailure(error: unknown): PollFailure {
  if (!isServiceError(error)) return { type: 'again', outcome: { type: 'error' } };
  if (error.code === Code.TooFrequent)
    return { type: 'again', outcome: { type: 'rate-limited', retryAfterMs: error.retryAfterMs } };
  if (error.code === Code.ContentNotFound || error.code === Code.ResourceNotFound) {
    return {
      type: 'gone',
      error: {
        ...serviceErrorToJob(error),
        explanation: 'The service no longer knows this job (deleted, expired, or a sandbox that was restarted).',
      },
    };
  }
  if (
    (error.code !== undefined && isAuthCode(error.code)) ||
    error.kind === 'config' ||
    error.httpStatus === 401 ||
    error.httpStatus === 403
  ) {
    return { type: 'stall', explanation: `${error.explanation} Then use "Check again".` };
  }
  return { type: 'again', outcome: { type: 'error' } };
}

/**
 * The record of a job another worker created: already sent, with the service's id, to be followed. Its
 * charge is the one that worker recorded at its answer (beside the intent), else what an answer gives
 * without a measurement (the published price, else the recent guide): the worker died before its report,
 * and the service's figure, where its answers carry one, replaces it when the job is polled. Without an
 * id (that worker stopped between writing its intent and the service's answer) the job may or may not
 * exist: it is recorded as of unknown outcome, charged nothing, never followed, so the studio's records
 * still show that something may have been made and charged.
 */
export function adoptedRecord(
  draft: Parameters<typeof newJobRecord>[0],
  remoteId: string | null,
  price: Price,
  sent?: SentCharge,
): JobRecord {
  const record = newJobRecord(draft);
  const now = draft.now;
  if (remoteId === null)
    return {
      ...record,
      phase: 'outcome-unknown',
      error: describeUnknownOutcome(null, WORKER_STOPPED),
      finishedAt: now,
    };
  const charge =
    sent && sent.chargedCredits !== null
      ? { chargedCredits: sent.chargedCredits, chargeSource: sent.chargeSource }
      : chargeAtAnswer(null, null, price);
  return { ...record, ...charge, phase: 'queued', remoteId, expiresAt: now + RESULT_LIFETIME_MS, activeSeenAt: now };
}

/** What a new record is made of: its submission, connection, summary and hash, and when it is due. */
export function jobDraft(
  id: string,
  submission: JobSubmission,
  connection: { id: string; name: string },
  request: Record<string, unknown>,
  now: number,
  deadlineMs: number | undefined,
  costEstimate: CostEstimate | null,
): Parameters<typeof newJobRecord>[0] {
  const summary = kindEntry(submission.kind).summary(submission.body);
  const requestHash = hashRequest(submission.kind, connection.id, submission.body);
  const deadlineAt = now + (deadlineMs ?? 24 * 3600_000);
  return { id, submission, connection, summary, requestHash, request, now, deadlineAt, costEstimate };
}

/** A job a worker made and reported, as this studio records it: its outcome as the worker saw it. */
export function receivedRecord(draft: Parameters<typeof newJobRecord>[0], view: JobView): JobRecord {
  const { phase, remoteId, remoteStatus, resultUrl, expiresAt, finishedAt, chargedCredits, chargeSource, error } = view;
  const seen = {
    remoteStatus,
    resultUrl,
    expiresAt,
    finishedAt,
    chargedCredits,
    chargeSource,
    error,
    polls: view.polls,
  };
  return { ...newJobRecord(draft), phase, remoteId, ...seen, activeSeenAt: draft.now };
}

/**
 * What this studio holds already of the jobs a report carries, so a report taken in twice records nothing
 * twice: a job by the service's id, one of unknown outcome (no id) by its request and its purpose (its
 * run, row, step and take). Read by run, from the ledger's indexes.
 */
export function receivedKeys(views: readonly JobView[], records: (scope: JobScope) => JobRecord[]) {
  const keyOf = (job: Pick<JobRecord, 'remoteId' | 'requestHash' | 'purpose'>) =>
    job.remoteId ?? `${job.requestHash} ${stableStringify(job.purpose)}`;
  const remoteIds = views.flatMap((v) => (v.remoteId === null ? [] : [v.remoteId]));
  const unknown = views.some((v) => v.remoteId === null);
  const known = new Set<string>();
  // By run and row: a report carries one row's jobs, and a whole run's read at every report made a
  // campaign's intake slower with each row taken in (quadratic over a run of thousands).
  const places = new Map<string, JobScope>();
  for (const view of views) {
    const runId = runOf(view);
    const row = rowOfRecord(view);
    const place: JobScope = runId === null ? {} : row === null ? { runId } : { runId, row };
    places.set(`${place.runId ?? ''}/${place.row ?? ''}`, place);
  }
  for (const place of places.values()) {
    for (const job of records({ ...place, remoteIds })) known.add(keyOf(job));
    if (unknown)
      for (const job of records({ ...place, phases: ['outcome-unknown'] }))
        if (job.remoteId === null) known.add(keyOf(job));
  }
  return {
    /** True the first time a job is seen (it is recorded); false for one held already. */
    firstTime(view: JobView, requestHash: string): boolean {
      const key = keyOf({ ...view, requestHash });
      if (known.has(key)) return false;
      known.add(key);
      return true;
    },
  };
}
