import type { JobRecord } from '../../common/bridge/jobs';
import type { JobKind } from '../../common/jobs/kinds';
import type { JobPhase } from '../../common/jobs/phases';
import type { PurposeType } from '../../common/jobs/purpose';

/**
 * Which jobs a reader needs, said so the ledger can answer from its indexes rather than from every job:
 * every field given narrows (AND); none given means every job. The database answers it in SQL
 * (records/ledger-find.ts); `inScope` is the same question asked of one record in memory.
 */
export interface JobScope {
  /** One batch's or campaign's jobs (purpose.batchId or purpose.campaignId). */
  runId?: string;
  /** One row of that run (purpose.row); asked with `runId`. */
  row?: number;
  ids?: readonly string[];
  remoteIds?: readonly string[];
  kinds?: readonly JobKind[];
  phases?: readonly JobPhase[];
  purposeTypes?: readonly PurposeType[];
  createdFrom?: number;
  /** A link that lasts past this time (a job with no end to its link lasts for ever). */
  expiresAfter?: number;
  /** A link that ends by this time. */
  expiresBefore?: number;
  /** The completed job whose result is at this link. */
  resultUrl?: string;
  /** Ended, and the reactor has not acted on it yet (reactedAt null). */
  unreacted?: true;
  /** The newest this many (by creation), after the other conditions. */
  newest?: number;
}

/** Ended for good: the phases the reactor acts on. */
export const ENDED_PHASES: readonly JobPhase[] = ['completed', 'failed', 'outcome-unknown'];
/** Not ended for good: polled, or waiting for the user to check again (stalled). A start holds them all. */
export const OPEN_PHASES: readonly JobPhase[] = ['submitting', 'queued', 'processing', 'stalled'];

/** The batch or campaign a job is a row's step of (null: none). */
export const runOf = (record: Pick<JobRecord, 'purpose'>): string | null => {
  const purpose = record.purpose as { batchId?: unknown; campaignId?: unknown };
  const id = purpose.batchId ?? purpose.campaignId;
  return typeof id === 'string' ? id : null;
};

/** The row of its run a job is a step of (purpose.row), or null for a job of no run. */
export const rowOfRecord = (record: Pick<JobRecord, 'purpose'>): number | null => {
  const row = (record.purpose as { row?: unknown }).row;
  return runOf(record) !== null && typeof row === 'number' ? row : null;
};

/** Whether a record is in the scope (without `newest`, which only a list can apply). */
export function inScope(scope: JobScope, record: JobRecord): boolean {
  if (scope.runId !== undefined && runOf(record) !== scope.runId) return false;
  if (scope.row !== undefined && rowOfRecord(record) !== scope.row) return false;
  if (scope.ids && !scope.ids.includes(record.id)) return false;
  if (scope.remoteIds && (record.remoteId === null || !scope.remoteIds.includes(record.remoteId))) return false;
  if (scope.kinds && !scope.kinds.includes(record.kind)) return false;
  if (scope.phases && !scope.phases.includes(record.phase)) return false;
  if (scope.purposeTypes && !scope.purposeTypes.includes(record.purpose.type)) return false;
  if (scope.createdFrom !== undefined && record.createdAt < scope.createdFrom) return false;
  if (scope.expiresAfter !== undefined && !((record.expiresAt ?? Infinity) > scope.expiresAfter)) return false;
  if (scope.expiresBefore !== undefined && !(record.expiresAt !== null && record.expiresAt <= scope.expiresBefore))
    return false;
  if (scope.resultUrl !== undefined && (record.phase !== 'completed' || record.resultUrl !== scope.resultUrl))
    return false;
  if (scope.unreacted && (record.reactedAt !== null || !ENDED_PHASES.includes(record.phase))) return false;
  return true;
}

/** A list's records in the scope, newest first, cut to `newest`. */
export function pickInScope(scope: JobScope, records: Iterable<JobRecord>): JobRecord[] {
  const picked: JobRecord[] = [];
  for (const record of records) if (inScope(scope, record)) picked.push(record);
  picked.sort((a, b) => b.createdAt - a.createdAt);
  return scope.newest === undefined ? picked : picked.slice(0, scope.newest);
}
