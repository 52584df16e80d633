import type { JobScope } from '../jobs/job-scope';
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { DownloadEntry, type CopyOrigin, type DownloadView } from '../../common/bridge/downloads';
import type { JobRecord } from '../../common/bridge/jobs';
import type { DownloadManager } from './download-manager';
import { unavailableReason } from './job-files';
import { targetOf } from './queue-names';

/**
 * Copies whose file name is their owner's (a campaign's row file, a batch's, `--out FILE`, a Tools page
 * save): a lost or changed one is fetched back under that very name, and only when asked (the owner
 * saving again, `download --missing`): a numbered file beside it would not be the one its manifest names.
 */
export const NAMED_BY_OWNER: ReadonlySet<CopyOrigin> = new Set(['campaign', 'batch', 'cli', 'tools']);

const UNDER_WAY = new Set<DownloadView['state']>(['queued', 'downloading']);
const COPY_STATES = new Set<DownloadView['state']>(['saved', 'missing', 'changed']);

/** Waits for downloads to end (saved, failed or cancelled), fed by the manager's onEnd. */
export class DownloadEnds {
  private readonly waiting = new Map<string, ((view: DownloadView) => void)[]>();
  private closed: Error | null = null;

  ended(view: DownloadView): void {
    const waiters = this.waiting.get(view.id) ?? [];
    this.waiting.delete(view.id);
    for (const done of waiters) done(view);
  }

  /** The download's end; at once when it is not under way (paused counts as an end: nothing moves it). */
  of(view: DownloadView): Promise<DownloadView> {
    if (!UNDER_WAY.has(view.state)) return Promise.resolve(view);
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((done) => this.waiting.set(view.id, [...(this.waiting.get(view.id) ?? []), done]));
  }

  /** The queue stopped (quit): whoever waits is told, the downloads resume at the next start. */
  close(): void {
    this.closed = new Error('The studio stopped before the copy was saved; it resumes at the next start.');
    for (const id of [...this.waiting.keys()])
      this.ended({ id, state: 'paused', reason: this.closed.message } as DownloadView);
  }
}

export interface CopyRequest {
  jobId: string;
  /** The file to save (absolute, or resolved from the working folder). */
  path: string;
  savedBy: CopyOrigin;
  /**
   * Refuse to write over a file at `path` that is not a copy this record holds as saved (a file the user
   * or another program put there): its owner asks the user first (a campaign's "replace").
   */
  keepOthers?: boolean;
}

export interface ResultCopiesDeps {
  manager: DownloadManager;
  ends: DownloadEnds;
  /** The job as the ledger has it, or null. */
  job(id: string): JobRecord | null;
  /** Every job of the ledger (a link's job is found among them). */
  /** The ledger's records, newest first; `match` picks some without sorting them all. */
  jobs(match: ((job: JobRecord) => boolean) | undefined, scope: JobScope): readonly JobRecord[];
  now(): number;
  /** Settles once earlier versions' copies are adopted, so a copy is never recorded twice. */
  ready(): Promise<unknown>;
}

/**
 * Every writer of a result to disk saves through here: the verified download (a `.part`, its length,
 * ffprobe, the SHA-256, the rename) of the download queue, which records the copy with who saved it.
 * So the queue is the one record of copies, and a copy saved and intact is never fetched twice.
 */
export class ResultCopies {
  constructor(private readonly deps: ResultCopiesDeps) {}

  /**
   * Saves the job's result as `path` and answers when it is saved or failed, and whether anything was
   * fetched. An intact copy already there answers at once; a lost or changed one is fetched in its place.
   */
  async save(request: CopyRequest): Promise<{ copy: DownloadView; fetched: boolean }> {
    const { manager, ends } = this.deps;
    await this.deps.ready();
    const target = resolve(request.path);
    const job = this.deps.job(request.jobId);
    if (!job) throw new Error('No such job in the library.');
    const mine = manager.forJob(job.id).filter((d) => sameFile(d, target) && d.state !== 'cancelled');
    const known = mine[0];
    if (known) {
      if (known.state === 'saved') {
        const [moved] = await manager.verifySaved({ deep: false, ids: [known.id] });
        if (!moved) return { copy: manager.get(known.id), fetched: false };
      }
      let state = manager.get(known.id).state;
      if (UNDER_WAY.has(state)) {
        // Queued by an earlier process that stopped (a run paused, a crash): set going here, not waited on idle.
        // One resumed after a restart may fail on its old partial file: then it is fetched once afresh.
        const end = await ends.of(manager.resume(known.id));
        if (end.state !== 'failed') return { copy: end, fetched: true };
        state = end.state;
      }
      this.requireLink(job);
      const again =
        state === 'paused'
          ? manager.resume(known.id)
          : manager.refetch(known.id, `The saved copy was ${state}; fetching it again in its place.`);
      return { copy: await ends.of(again), fetched: true };
    }
    const url = this.requireLink(job);
    if (request.keepOthers && (await this.foreignFile(target)))
      throw new Error(
        `The folder has a file "${basename(target)}" the studio did not save; it was left as it is (choose to replace it, or another name).`,
      );
    const added = await manager.enqueue({
      jobId: job.id,
      url,
      folder: dirname(target),
      relativeName: basename(target),
      origin: request.savedBy,
      exact: true,
    });
    const copy = await ends.of(added);
    // Another job's copy at this path (a row's earlier take) is gone now: its record must not call the
    // new file "changed", nor fetch the old result back over it.
    if (copy.state === 'saved') await this.forget(target, job.id);
    return { copy, fetched: true };
  }

  /**
   * The copies recorded at this path (but the job's own) are no longer copies: their owner replaced or
   * removed the file (a batch row made again under a new name). Kept in the record as cancelled.
   */
  async forget(path: string, keepJob?: string): Promise<void> {
    const target = resolve(path);
    const there = this.deps.manager.lookup.savedAt(target);
    const gone = there.filter((d) => d.jobId !== keepJob && COPY_STATES.has(d.state));
    await this.deps.manager.adopt(
      gone.map((d) => ({
        ...DownloadEntry.parse(d),
        state: 'cancelled' as const,
        reason: 'Its owner replaced this file with a newer result.',
      })),
    );
  }

  /** As save(), throwing unless the copy is saved; answers whether anything was fetched. */
  async saveOrThrow(request: CopyRequest): Promise<boolean> {
    const { copy, fetched } = await this.save(request);
    if (copy.state !== 'saved') throw new Error(copy.reason ?? `The copy was not saved (${copy.state}).`);
    return fetched;
  }

  /**
   * The recorded copies of these jobs' results, each checked against the disk first, so a deleted or
   * rewritten file reads as missing or changed and never as saved.
   */
  async checked(jobIds: Iterable<string>): Promise<DownloadView[]> {
    await this.deps.ready();
    const { manager } = this.deps;
    const ids = [...new Set(jobIds)];
    const entries = () => manager.lookup.ofJobs(ids).flatMap((each) => each.reverse());
    await manager.verifySaved({ deep: false, ids: entries().map((d) => d.id) });
    return entries();
  }

  /** The recorded copies saved in this folder, each checked against the disk first. */
  async inFolder(folder: string): Promise<DownloadView[]> {
    await this.deps.ready();
    const { manager } = this.deps;
    const dir = resolve(folder);
    // A walk of the record's copies, a page at a time: only this folder's are kept.
    const ids: string[] = [];
    for (const copy of manager.lookup.copies())
      if (copy.savedPath !== null && dirname(copy.savedPath) === dir) ids.push(copy.id);
    await manager.verifySaved({ deep: false, ids });
    return ids.flatMap((id) => manager.lookup.find(id) ?? []);
  }

  /** Something is at `target` and the record holds no intact copy there (a file the studio did not save). */
  async foreignFile(path: string): Promise<boolean> {
    const target = resolve(path);
    if (!existsSync(target)) return false;
    const there = this.deps.manager.lookup.savedAt(target).filter((d) => COPY_STATES.has(d.state));
    if (there.length === 0) return true;
    await this.deps.manager.verifySaved({ deep: false, ids: there.map((d) => d.id) });
    return !there.some((d) => this.deps.manager.get(d.id).state === 'saved');
  }

  /** As saveOrThrow(), for a writer that holds only the result's link (a campaign row): its job is the ledger's. */
  async saveLink(request: Omit<CopyRequest, 'jobId'> & { url: string }): Promise<boolean> {
    const job = this.deps.jobs(undefined, { resultUrl: request.url })[0];
    if (!job) throw new Error('No job in the library gave this result.');
    return this.saveOrThrow({ ...request, jobId: job.id });
  }

  private requireLink(job: JobRecord): string {
    const reason = unavailableReason(job, this.deps.now());
    if (reason !== null || job.resultUrl === null) throw new Error(reason ?? 'The job has no result link.');
    return job.resultUrl;
  }
}

function sameFile(entry: DownloadView, target: string): boolean {
  if (entry.savedPath !== null) return entry.savedPath === target;
  try {
    return targetOf(entry.folder, entry.relativeName) === target;
  } catch {
    return false;
  }
}
