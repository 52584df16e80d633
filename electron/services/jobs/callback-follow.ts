import type { WebhookEvent } from '../../common/api';
import type { JobRecord } from '../../common/bridge/jobs';
import { JOB_KIND_REGISTRY, audioSnapshot, avatarSnapshot, videoSnapshot } from '../../common/jobs/kinds';
import type { RemoteSnapshot } from './kinds';
import type { EndedJob, PollingStrategy, TimedJob, WakeHint } from './polling-strategy';

/**
 * A callback read as the answer a poll would have given: the job's last answer with the callback's
 * status and result link, so what the studio keeps of the answer (a character swap's length, a
 * create's charge) stays as it was.
 */
export function callbackSnapshot(record: JobRecord, event: WebhookEvent): RemoteSnapshot {
  const before = record.answer && typeof record.answer === 'object' ? (record.answer as Record<string, unknown>) : {};
  const url = event.status === 3 ? event.url : '';
  switch (JOB_KIND_REGISTRY[record.kind].createEndpoint) {
    case 'audioCreate':
    case 'audioClone':
      return audioSnapshot({ ...before, _id: event._id, status: event.status, url });
    case 'avatarCreate':
      return avatarSnapshot({ ...before, _id: event._id, status: event.status, url }, event._id);
    default:
      return videoSnapshot({ ...before, _id: event._id, video_status: event.status, video: url });
  }
}

/** What a strategy may say of how long a job usually takes (JobTiming learns it). */
export interface ExpectedLength {
  expected?(job: TimedJob): { latest: number } | undefined;
}

/**
 * Polling as the fallback of callbacks: a job the service was asked to call back about is not polled
 * until its callback is overdue, half as long again as the longest its kind usually takes (learnt as
 * today, from the ends callbacks and polls report), plus `graceMs` (a few seconds) for the callback's
 * way here; while nothing is known of its kind, `coldMs` (or the grace, if longer). Then it is polled as any other job: a lost callback
 * costs about one request, never the job. Jobs without a callback are polled exactly as before.
 */
export class CallbackPolling implements PollingStrategy {
  constructor(
    private readonly inner: PollingStrategy & ExpectedLength,
    private readonly called: (jobId: string) => boolean,
    private readonly coldMs = 60_000,
    /** The callback's way here, past the job's expected end (JobCallbacksOptions.graceMs). */
    private readonly graceMs = 3_000,
  ) {}

  follow(job: TimedJob): string[] {
    return this.inner.follow(job);
  }

  finished(job: EndedJob, learn: boolean): string[] {
    return this.inner.finished(job, learn);
  }

  hint(job: TimedJob, now: number, turnsScarce?: boolean): WakeHint | undefined {
    if (!this.called(job.id)) return this.inner.hint(job, now, turnsScarce);
    const expected = this.inner.expected?.(job);
    const wait = expected ? expected.latest * 1.5 + this.graceMs : Math.max(this.coldMs, this.graceMs);
    const overdueAt = (job.sentAt ?? job.createdAt) + wait;
    if (now < overdueAt) return { at: overdueAt };
    return this.inner.hint(job, now, turnsScarce);
  }
}
