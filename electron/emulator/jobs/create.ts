import type { EmulatorContext } from '../context';
import type { Caller } from '../state/accounts';
import type { JobKind, JobRecord } from '../state/types';
import { RecordStatus } from '../../common/api';

export interface NewJob {
  kind: JobKind;
  request: Record<string, unknown>;
  webhook?: string;
  cost: number;
  facts?: Record<string, number | string>;
}

/** Charges first (throws 1006 and creates nothing when the balance is short), then queues the job. */
export function createJob(ctx: EmulatorContext, caller: Caller, spec: NewJob): JobRecord {
  ctx.accounts.charge(caller.account, spec.cost);
  const now = ctx.options.now();
  const job: JobRecord = {
    _id: ctx.store.newId(now),
    kind: spec.kind,
    uid: caller.account.uid,
    status: RecordStatus.Queueing,
    createdAt: now,
    updatedAt: now,
    webhook: spec.webhook ?? '',
    request: spec.request,
    cost: spec.cost,
    resultFile: '',
    extraFiles: {},
    facts: spec.facts ?? {},
    reason: '',
    webhookLog: { attempts: 0, delivered: false, lastError: '' },
  };
  ctx.store.state.jobs[job._id] = job;
  ctx.store.changed(job);
  ctx.engine.submit(job);
  return job;
}

/** A job of one of the given kinds owned by the caller, or undefined. */
export function findJob(
  ctx: EmulatorContext,
  caller: Caller,
  id: string,
  kinds: readonly JobKind[],
): JobRecord | undefined {
  const job = ctx.store.state.jobs[id];
  return job && job.uid === caller.account.uid && kinds.includes(job.kind) ? job : undefined;
}
