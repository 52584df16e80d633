import type { JobRecord, JobView } from '../../common/bridge/jobs';
import type { JobEngineDeps } from './engine-types';
import { kindEntry } from './kinds';
import { isFinal, overallProgress, toJobView } from './job-view';

type Outlets = Pick<JobEngineDeps, 'clock' | 'onChange' | 'notify' | 'setProgress'>;

/**
 * Everything the engine tells the world about its jobs: each change to the page's and the services'
 * listeners, the end of a job as a notification, the whole queue's progress for the dock or taskbar.
 */
export class JobEvents {
  private readonly views = new Set<(job: JobView) => void>();
  private readonly records = new Set<(job: JobRecord) => void>();

  constructor(
    private readonly outlets: Outlets,
    /** The jobs under way, whose progress the dock or taskbar shows. */
    private readonly active: () => Iterable<JobRecord>,
  ) {}

  /** Each change as the page sees it. */
  subscribe(listener: (job: JobView) => void): () => void {
    this.views.add(listener);
    return () => this.views.delete(listener);
  }

  /** Each change as the ledger keeps it, for services that act on the record (the reactor). */
  subscribeRecords(listener: (job: JobRecord) => void): () => void {
    this.records.add(listener);
    return () => this.records.delete(listener);
  }

  /** Resolves with the job's view when it next reaches a final phase. */
  nextEnd(id: string, signal?: AbortSignal): Promise<JobView> {
    return new Promise((resolve, reject) => {
      const unsubscribe = this.subscribe((job) => {
        if (job.id !== id || !isFinal(job.phase)) return;
        unsubscribe();
        resolve(job);
      });
      signal?.addEventListener(
        'abort',
        () => {
          unsubscribe();
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  changed(record: JobRecord): void {
    const now = this.outlets.clock.now();
    const view = toJobView(record, now);
    this.outlets.onChange?.(view);
    for (const listener of this.views) listener(view);
    for (const listener of this.records) listener(record);
    this.reportProgress(now);
  }

  ended(record: JobRecord | undefined): void {
    // A batch's rows (and a campaign's) are announced once, by the batch, when it ends: a toast per row piled over the table.
    if (
      !record ||
      !this.outlets.notify ||
      record.purpose.type === 'batch-row' ||
      record.purpose.type === 'campaign-row'
    )
      return;
    const label = kindEntry(record.kind).label;
    if (record.phase === 'completed') this.outlets.notify(`${label} ready`, record.summary, 'completed');
    else this.outlets.notify(`${label} failed`, record.error?.explanation ?? record.summary, 'failed');
  }

  reportProgress(now = this.outlets.clock.now()): void {
    this.outlets.setProgress?.(overallProgress(this.active(), now));
  }
}
