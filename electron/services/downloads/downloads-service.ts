import type { JobScope } from '../jobs/job-scope';
import { resolve } from 'node:path';
import type { DownloadEntry, DownloadTotals, DownloadView } from '../../common/bridge/downloads';
import { SANDBOX_CONNECTION_ID } from '../../common/bridge/connections';
import type { JobRecord } from '../../common/bridge/jobs';
import { checkTemplate } from '../../common/file-names';
import type { Logger, RecordStoreFactory } from '../host/types';
import { downloadPreferencesSpec } from './download-preferences';
import { DownloadManager, type EnqueueRequest } from './download-manager';
import { savedCopyAmong } from './queue-file';
import { copyAmong } from './recorded-downloads';
import type { CheckRequest } from './copy-check';
import type { DownloadRecords } from './queue-records';
import { jobFile, unavailableReason, type JobFile } from './job-files';
import { checkSaveFolder, type FolderCheck } from './save-folder';
import { CaptionSidecars } from './caption-sidecars';
import { DownloadEnds, NAMED_BY_OWNER, ResultCopies } from './result-copies';
import { runEnded } from './run-notice';
import { renameCopies } from './rename-copies';
import { fetchedBack } from './lost-notice';
import type { Project } from '../../common/composition/document';

export { checkSaveFolder } from './save-folder';

export { DownloadPreferences, downloadPreferencesSpec, suggestedFolder } from './download-preferences';

export interface DownloadsServiceDeps {
  dataDir: string;
  /** The queue's record and its reader (the folder's records database). */
  records: DownloadRecords;
  /** Whether the downloads left queued start now (DownloadManagerOptions.resumeQueued). */
  resumeQueued?: boolean;
  createStore: RecordStoreFactory;
  log: Logger;
  /** The job as the ledger has it now (throws for an unknown id). */
  job(id: string): JobRecord;
  /** Every job of the ledger: a writer that holds only a result's link (a campaign row) finds its job. */
  /** The ledger's jobs in a scope that `match` (a link's job). */
  jobs?(match: ((job: JobRecord) => boolean) | undefined, scope: JobScope): readonly JobRecord[];
  /** A project's name from its id, for {project} and for the Library. */
  projectName(id: string): Promise<string | null>;
  /**
   * A project as last saved: given, a saved video of a project whose captions go beside downloads
   * gets its .srt and .vtt (caption-sidecars.ts), whoever started the download.
   */
  project?(id: string): Promise<Project | null>;
  verify?(path: string): Promise<void>;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  onChange?(view: DownloadView): void;
  onTotals?(totals: DownloadTotals): void;
  /** Tells the user a batch of downloads has finished. */
  notify?(title: string, body: string, ok: boolean): void;
  /**
   * Starts the built-in sandbox (on first use), so the links of its results open: after a restart
   * nothing else may have needed it yet.
   */
  sandbox?(): Promise<unknown>;
}

export interface StartResult {
  queued: DownloadView[];
  skipped: { jobId: string; reason: string }[];
  /** Ids among `queued` that were already saved under these names in this folder (nothing fetched). */
  already: string[];
  /** New downloads of jobs that already have a saved copy elsewhere or under another name. */
  copies: number;
}

/** Turns jobs into downloads: names from the template, the queue, the remembered folder, batch notices. */
export class DownloadsService {
  readonly manager: DownloadManager;
  readonly preferences;
  /** Saves a result as a named file through this queue, which records the copy (see ResultCopies). */
  readonly copies: ResultCopies;
  private readonly ends = new DownloadEnds();
  /** Settles once copies recorded by earlier versions are adopted (see adoptCopies); readers wait for it. */
  ready: Promise<unknown> = Promise.resolve();
  private batchCounter = 0;
  private readonly told = new Set<string>();
  private readonly sidecars: CaptionSidecars | null;
  /** Who else follows each change of the queue (the copy watcher learns of folders holding new copies). */
  readonly changes = new Set<(view: DownloadView) => void>();

  constructor(private readonly deps: DownloadsServiceDeps) {
    this.preferences = deps.createStore(downloadPreferencesSpec);
    const project = deps.project;
    const sidecars = project ? new CaptionSidecars({ job: (id) => this.jobOrNull(id), project, log: deps.log }) : null;
    this.sidecars = sidecars;
    this.manager = new DownloadManager({
      store: deps.records.store,
      resumeQueued: deps.resumeQueued,
      fetch: deps.fetch,
      verify: deps.verify,
      now: deps.now,
      log: deps.log,
      concurrency: () => this.preferences.get().concurrency,
      speedLimit: () => this.preferences.get().speedLimit,
      onChange: (view) => {
        deps.onChange?.(view);
        sidecars?.seen(view);
        for (const listener of this.changes) listener(view);
      },
      onTotals: deps.onTotals,
      onEnd: (view) => {
        this.ends.ended(view);
        runEnded(view, (run) => this.manager.lookup.countRun(run), this.told, deps.notify);
      },
      prepare: (entry) => this.prepare(entry),
    });
    this.copies = new ResultCopies({
      manager: this.manager,
      ends: this.ends,
      job: (id) => this.jobOrNull(id),
      jobs: (match, scope) => deps.jobs?.(match, scope) ?? [],
      now: () => this.now(),
      ready: () => this.ready,
    });
  }

  /**
   * A complete copy of this link saved by this queue or by the other one of the data folder (the app
   * reads what `studio download` saved, and the other way round); null when there is none.
   */
  async savedCopyOf(url: string): Promise<string | null> {
    const own = await this.manager.lookup.savedCopyOf(url);
    // The command line's old queue: an indexed lookup of this link, not a read of the queue.
    return own ?? savedCopyAmong(await this.deps.records.reader.savedFrom(url, 'cli'), url);
  }

  private async prepare(entry: DownloadEntry): Promise<void> {
    let job: JobRecord;
    try {
      job = this.deps.job(entry.jobId);
    } catch {
      return; // removed from the library since: its link is fetched as it is
    }
    if (job.connectionId !== SANDBOX_CONNECTION_ID) return;
    // A sandbox that cannot start is named in the log; the link is still tried (and says why it failed).
    await this.deps
      .sandbox?.()
      .catch((error: unknown) => this.deps.log.warn('sandbox not started for a download', { error }));
  }

  /** The job as the ledger has it, or null when the Library no longer holds it. */
  jobOrNull(id: string): JobRecord | null {
    try {
      return this.deps.job(id);
    } catch {
      return null;
    }
  }

  /** The service's clock (a test's own where given): the archive beside it reads the same one. */
  now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** The files these jobs would give, named by the template. */
  async files(jobIds: readonly string[], template: string): Promise<JobFile[]> {
    const problem = checkTemplate(template);
    if (problem) throw new Error(problem);
    const names = new Map<string, string | null>();
    const out: JobFile[] = [];
    for (const jobId of jobIds) {
      let job: JobRecord;
      try {
        job = this.deps.job(jobId);
      } catch {
        out.push({ ok: false, jobId, reason: 'No such job in the library.' });
        continue;
      }
      if (job.projectId && !names.has(job.projectId))
        names.set(job.projectId, await this.deps.projectName(job.projectId));
      const projectName = job.projectId ? names.get(job.projectId) : null;
      out.push(jobFile(job, template, this.now(), { projectName }));
    }
    return out;
  }

  /** What start() would name each file, with its size where a saved copy of the same link tells it. */
  async preview(
    jobIds: readonly string[],
    template: string,
  ): Promise<{ jobId: string; name: string | null; reason: string | null; bytes: number | null }[]> {
    const sizes = new Map<string, number>();
    // The jobs' own downloads (one indexed question), not every entry of the queue.
    for (const entry of this.manager.lookup.ofJobs(jobIds).flat().reverse())
      if (entry.state === 'saved' || entry.totalBytes !== null) sizes.set(entry.url, entry.totalBytes ?? entry.bytes);
    return (await this.files(jobIds, template)).map((file) =>
      file.ok
        ? { jobId: file.jobId, name: file.relativeName, reason: null, bytes: sizes.get(file.url) ?? null }
        : { jobId: file.jobId, name: null, reason: file.reason, bytes: null },
    );
  }

  /**
   * Queues every available result. The same job into the same folder under the same name again answers
   * the earlier download (resumed if it stopped; fetched again if its file went missing); another
   * folder or another template makes another copy.
   */
  async start(request: {
    jobIds: readonly string[];
    folder: string;
    template?: string;
    origin: 'library' | 'cli' | 'archive' | 'tools';
  }): Promise<StartResult> {
    const { folder, template, batchId } = await this.prepareStart(request);
    const files = await this.files(request.jobIds, template);
    const result: StartResult = { queued: [], skipped: [], already: [], copies: 0 };
    // In the order asked: an earlier download of the same job, or a new one (queued together below).
    const slots: (DownloadView | EnqueueRequest)[] = [];
    const recorded = this.manager.lookup.byJob(files.flatMap((file) => (file.ok ? [file.jobId] : [])));
    for (const file of files) {
      if (!file.ok) {
        result.skipped.push({ jobId: file.jobId, reason: file.reason });
        continue;
      }
      const earlier = recorded.get(file.jobId) ?? [];
      const existing = await this.takeUpEarlier(file.jobId, folder, file.relativeName, earlier);
      if (existing) {
        if (existing.state === 'saved') result.already.push(existing.id);
        slots.push(existing);
        continue;
      }
      if (earlier.some((d) => d.state === 'saved')) result.copies += 1;
      slots.push({
        jobId: file.jobId,
        url: file.url,
        folder,
        relativeName: file.relativeName,
        origin: request.origin,
        batchId,
      });
    }
    const added = await this.manager.enqueueAll(slots.filter((slot): slot is EnqueueRequest => !('id' in slot)));
    let next = 0;
    for (const slot of slots) result.queued.push('id' in slot ? slot : added[next++]);
    return result;
  }

  /**
   * What every start does first: the folder checked (made if need be; a missing drive refuses), the
   * template checked and, for the Library, both remembered; the run named.
   */
  async prepareStart(request: {
    folder: string;
    template?: string;
    origin: string;
  }): Promise<{ folder: string; template: string; batchId: string }> {
    // Before the folder is made: on a missing drive it would be made on the system disk instead.
    const gone = await this.manager.drives.check(resolve(request.folder.trim()));
    if (gone !== null) throw new Error(gone);
    const checked = await checkSaveFolder(request.folder, { create: true });
    if (!checked.ok) throw new Error(checked.message);
    const folder = checked.folder;
    const template = request.template ?? this.preferences.get().template;
    const problem = checkTemplate(template);
    if (problem) throw new Error(problem);
    if (request.origin === 'library') this.preferences.update((p) => ({ ...p, folder, template }));
    return { folder, template, batchId: `batch-${this.now()}-${(this.batchCounter += 1)}` };
  }

  get log(): Logger {
    return this.deps.log;
  }

  /** Tells the user something about their downloads (a notice, and a system notification where one is). */
  tell(title: string, body: string, ok: boolean): void {
    this.deps.notify?.(title, body, ok);
  }

  /** Renames the saved copies of these jobs after another template (see renameCopies). */
  renameCopies(
    jobIds: readonly string[],
    template: string,
  ): Promise<{ moved: DownloadView[]; skipped: { jobId: string; reason: string }[] }> {
    return renameCopies(this, this.deps, jobIds, template);
  }

  /**
   * Fetches lost copies back to where they were (their folder and name): `studio download --missing`
   * without --out. A name taken since gets a numbered suffix, as always.
   */
  async restore(
    copies: readonly { jobId: string; folder: string; relativeName: string; downloadId?: string }[],
    origin: 'cli' | 'library',
  ): Promise<DownloadView[]> {
    const requests: EnqueueRequest[] = [];
    const inPlace: DownloadView[] = [];
    for (const copy of copies) {
      const job = this.deps.job(copy.jobId);
      if (unavailableReason(job, this.now()) !== null || job.resultUrl === null) continue;
      // The copy itself comes back under its name: no second record of it, no numbered file beside it.
      // It may be on its way back already (the archive's check found it missing): a second download to
      // the same name would race it.
      if (copy.downloadId) await this.manager.verifySaved({ deep: false, ids: [copy.downloadId] });
      const lost = copy.downloadId
        ? this.manager.lookup.find(copy.downloadId)
        : this.manager.lookup.copyAt(copy.jobId, resolve(copy.folder), copy.relativeName);
      if (lost && (lost.state === 'missing' || (lost.state === 'changed' && NAMED_BY_OWNER.has(lost.origin))))
        inPlace.push(this.manager.refetch(lost.id, `The saved copy was ${lost.state}; fetching it again.`));
      else if (lost && (lost.state === 'paused' || lost.state === 'failed')) inPlace.push(this.manager.resume(lost.id));
      else if (lost && ['queued', 'downloading', 'saved'].includes(lost.state)) inPlace.push(lost);
      else {
        const { jobId, folder, relativeName } = copy;
        requests.push({ jobId, folder, relativeName, url: job.resultUrl, origin, batchId: null });
      }
    }
    return [...inPlace, ...(await this.manager.enqueueAll(requests))];
  }

  /**
   * The earlier download of this job into this folder under this name, set going again where it needs
   * to: fetched again if its file went missing, resumed if it stopped. Null when there is none. `known`:
   * the job's entries, newest first, when the caller asked for a page of jobs at once (byJob).
   */
  async takeUpEarlier(
    jobId: string,
    folder: string,
    relativeName: string,
    known = this.manager.forJob(jobId),
  ): Promise<DownloadView | null> {
    const existing = copyAmong(known, folder, relativeName);
    if (!existing) return null;
    let state = existing.state;
    if (state === 'saved')
      state = (await this.manager.verifySaved({ deep: false, ids: [existing.id] }))[0]?.state ?? state;
    if (state === 'missing') this.manager.refetch(existing.id, 'The saved copy was missing; fetching it again.');
    else if (state === 'paused' || state === 'failed' || state === 'queued') this.manager.resume(existing.id);
    return this.manager.get(existing.id);
  }

  /**
   * Checks every saved copy (see checkCopy; `deep` reads every file again) and fetches again, while the
   * job's link works, each copy found missing (under its own name) or changed (beside it: the changed
   * file is the user's and is left alone). A copy on a drive that is missing is not fetched again: the
   * folder it was in is an empty mount point, or would be made on the system disk. `ids` checks only
   * those copies (a folder the watcher saw change). Answers the copies whose state changed; `tally`
   * counts every copy looked at.
   */
  async checkCopies({ deep, ids, tally }: CheckRequest): Promise<DownloadView[]> {
    const drives = this.manager.drives;
    const wasGone = new Set(drives.missingFolders());
    const back = await this.manager.checkDrives();
    // A drive found gone (or back) changes what every copy on it is: they are looked at now, with the
    // folders asked about, so the rows say so with the banner (a drive can go without its watch hearing).
    const turned = new Set([...back, ...drives.missingFolders().filter((f) => !wasGone.has(f))]);
    const onTurned = turned.size > 0 && ids ? this.manager.lookup.copiesIn([...turned]).map((e) => e.id) : [];
    const moved = await this.manager.verifySaved({ deep, ids: ids && [...new Set([...ids, ...onTurned])], tally });
    const now = this.now();
    const again: EnqueueRequest[] = [];
    const { restoreLost } = this.preferences.get();
    for (const copy of moved) {
      if (copy.state !== 'missing' && copy.state !== 'changed') continue;
      // A job removed from the library has nothing to fetch it from; fetchedBack says what else stays.
      const job = this.jobOrNull(copy.jobId);
      if (job?.resultUrl == null || !fetchedBack(copy, job, now, restoreLost)) continue;
      if (copy.state === 'missing') this.manager.refetch(copy.id, 'The saved copy was missing; fetching it again.');
      else
        again.push({
          jobId: copy.jobId,
          url: job.resultUrl,
          folder: copy.folder,
          relativeName: copy.requestedName ?? copy.relativeName,
          origin: copy.origin,
          batchId: null,
        });
    }
    if (again.length > 0) await this.manager.enqueueAll(again);
    if (moved.length > 0)
      this.deps.log.info('saved copies checked', { deep, moved: moved.map((m) => ({ id: m.id, state: m.state })) });
    return moved;
  }

  /** The path of a saved copy, checked to be the file written just now; null when it is not. */
  async verifiedPath(id: string): Promise<string | null> {
    await this.manager.verifySaved({ deep: false, ids: [id] });
    const entry = this.manager.lookup.find(id);
    return entry?.state === 'saved' ? entry.savedPath : null;
  }

  /** A folder typed by the user: absolute and writable (or makeable); nothing is created. */
  checkFolder(raw: string): Promise<FolderCheck> {
    return checkSaveFolder(raw);
  }

  /** Settles when nothing is queued or running and every caption file begun is written (the CLI exits then). */
  async whenIdle(): Promise<void> {
    await this.manager.whenIdle();
    await this.sidecars?.settled();
  }

  async dispose(): Promise<void> {
    await this.manager.dispose();
    this.ends.close();
    await this.sidecars?.settled();
  }
}
