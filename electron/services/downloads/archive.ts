import type { JobScope } from '../jobs/job-scope';
import type { PurposeType } from '../../common/jobs/purpose';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ArchiveSettings, type DownloadView } from '../../common/bridge/downloads';
import { MAX_PAGE_JOBS, type JobRecord } from '../../common/bridge/jobs';
import type { Logger, RecordStoreFactory, RecordStoreSpec } from '../host/types';
import type { DownloadsService } from './downloads-service';
import { isAudioKind, unavailableReason } from './job-files';
import { stepOf } from '../../common/jobs/steps';

/**
 * Where the archive's Videos and Music folders go by default: the user's home folder for the studio's
 * own data folder, and the data folder itself when another one was given (`--data-dir`), so a second
 * studio on its own folder keeps its results apart. STUDIO_ARCHIVE_HOME overrides both (tests).
 */
export function archiveHome(
  dataDir: string | undefined,
  defaultDataDir: string | undefined,
  env: Record<string, string | undefined> = process.env,
): string {
  if (env.STUDIO_ARCHIVE_HOME) return env.STUDIO_ARCHIVE_HOME;
  if (dataDir === undefined || defaultDataDir === undefined || resolve(dataDir) === resolve(defaultDataDir))
    return homedir();
  return dataDir;
}

/** Under the Videos and Music folders of `home` (see archiveHome). */
export function defaultArchiveSettings(home = archiveHome(undefined, undefined)): ArchiveSettings {
  return {
    enabled: true,
    videoFolder: join(home, 'Videos', 'Avatar Studio'),
    audioFolder: join(home, 'Music', 'Avatar Studio'),
    template: '{project|kind}/{date} - {text|id}',
  };
}

export const archiveSettingsSpec: RecordStoreSpec<ArchiveSettings> = {
  name: 'archive',
  schema: ArchiveSettings,
  defaults: defaultArchiveSettings(),
  version: 1,
};

const DAY = 86_400_000;

/** A copy in these states is on disk, or will be: the job needs no other. */
const KEPT: ReadonlySet<DownloadView['state']> = new Set(['saved', 'queued', 'downloading', 'paused']);

/** A row of a batch or a campaign: its run saves it into its own folder. */
const RUN_ROWS: readonly PurposeType[] = ['batch-row', 'campaign-row'];
const isRunRow = (job: JobRecord) => RUN_ROWS.includes(job.purpose.type);

export interface ArchiveDeps {
  downloads: DownloadsService;
  /** The host's data folder: the archive's default folders follow it when it is not `defaultDataDir`. */
  dataDir?: string;
  defaultDataDir?: string;
  createStore: RecordStoreFactory;
  /** The ledger's results (not steps of other jobs) in a scope. */
  jobs(scope: JobScope): JobRecord[];
  log: Logger;
  now?: () => number;
  /** Tells the user about results about to expire unsaved. */
  warn(title: string, body: string): void;
}

/**
 * Keeps a copy of every finished result in the archive folders. `keep` is the reactor's handler for a
 * job's end (so the reactor's catch-up at start and its retry of a failed reaction hold for the archive);
 * `sync` queues every completed, unexpired job without an archive copy (saved or on its way), for when
 * the archive is switched on or its folders change. Both are idempotent.
 */
export class Archive {
  readonly settings;
  private readonly warned = new Set<string>();
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ArchiveDeps) {
    this.settings = deps.createStore(archiveSettingsSpec);
    // Settings never changed from the home folder's defaults move with a data folder that was given.
    const home = archiveHome(deps.dataDir, deps.defaultDataDir);
    if (
      home !== archiveHome(undefined, undefined) &&
      isDeepStrictEqual(this.settings.get(), archiveSettingsSpec.defaults)
    )
      this.settings.set(defaultArchiveSettings(home));
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /**
   * Queues what is missing of every job; a failure is told to the user and logged, never thrown. A
   * batch's or a campaign's row is its run's to save, so it is queued only when its run's copy was
   * lost (missing, changed, failed) or its link ends within a day with no copy: the archive protects it.
   */
  sync({ rowsOnly = false }: { rowsOnly?: boolean } = {}): Promise<void> {
    if (!this.settings.get().enabled) return Promise.resolve();
    const now = this.now();
    const alive = { phases: ['completed' as const], expiresAfter: now };
    const jobs = rowsOnly
      ? this.rowsAtRisk(now)
      : this.deps.jobs(alive).filter((job) => !isRunRow(job) || this.unprotected(job, now));
    return this.serially(() => this.queueMissing(jobs)).catch((error: unknown) => {
      this.deps.log.warn('archive sync failed', { error });
    });
  }

  /**
   * Queues this job's result if the archive has no copy of it. Rejects when it could not be queued, so
   * the reactor leaves the job unreacted and tries again at the next start.
   */
  keep(job: JobRecord): Promise<void> {
    // A step of something else (a scene's voiceover, in its project) is not a result to keep.
    if (stepOf(job) !== null) return Promise.resolve();
    return this.serially(() => this.queueMissing([job]));
  }

  /**
   * The runs' rows to protect, asked of the ledger as such: those whose link ends within a day, and
   * those with a copy recorded that is no longer kept (never every live result of a 100,000-row run).
   */
  private rowsAtRisk(now: number): JobRecord[] {
    const alive = { phases: ['completed' as const], expiresAfter: now };
    const lost = this.deps.downloads.manager.lookup.lostJobs();
    const found = new Map<string, JobRecord>();
    for (const job of this.deps.jobs({ ...alive, purposeTypes: RUN_ROWS, expiresBefore: now + DAY }))
      found.set(job.id, job);
    if (lost.length > 0) for (const job of this.deps.jobs({ ...alive, ids: lost })) found.set(job.id, job);
    return [...found.values()].filter((job) => isRunRow(job) && this.unprotected(job, now));
  }

  /** A run's row with no copy left of its run's saving, or about to expire with none. */
  private unprotected(job: JobRecord, now: number): boolean {
    const copies = this.deps.downloads.manager.forJob(job.id);
    if (copies.some((d) => KEPT.has(d.state))) return false;
    return copies.length > 0 || (job.expiresAt !== null && job.expiresAt - now <= DAY);
  }

  /**
   * The jobs among these with a download `holds` holds, asked of the record a page of jobs at a time:
   * a catch-up of a whole Library is one indexed question per page, not one per job.
   */
  private jobsWith(jobIds: readonly string[], holds: (d: DownloadView) => boolean): Set<string> {
    const found = new Set<string>();
    const { lookup } = this.deps.downloads.manager;
    for (let at = 0; at < jobIds.length; at += MAX_PAGE_JOBS)
      for (const entries of lookup.ofJobs(jobIds.slice(at, at + MAX_PAGE_JOBS)))
        if (entries.some(holds)) found.add(entries[0].jobId);
    return found;
  }

  /** One at a time, so two completions never queue the same job twice; a failure does not stop the next. */
  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.syncing.then(work);
    this.syncing = run.catch(() => undefined);
    return run;
  }

  private async queueMissing(jobs: JobRecord[]): Promise<void> {
    const settings = this.settings.get();
    if (!settings.enabled) return;
    const now = this.now();
    let failure: unknown = null;
    // Any copy on disk or on its way counts, whoever saved it: the archive never writes a second one.
    const kept = this.jobsWith(
      jobs.map((job) => job.id),
      (d) => KEPT.has(d.state),
    );
    const missing = jobs.filter((job) => unavailableReason(job, now) === null && !kept.has(job.id));
    for (const audio of [false, true]) {
      const jobIds = missing.filter((job) => isAudioKind(job.kind) === audio).map((job) => job.id);
      if (jobIds.length === 0) continue;
      const folder = audio ? settings.audioFolder : settings.videoFolder;
      try {
        await this.deps.downloads.start({ jobIds, folder, template: settings.template, origin: 'archive' });
      } catch (error) {
        this.deps.log.warn('archive could not queue results', { folder, error });
        this.deps.warn(
          'The archive cannot save results',
          `${(error as Error).message} Change the archive folder in the Library's archive settings.`,
        );
        failure ??= error;
      }
    }
    if (failure !== null) throw failure;
  }

  /**
   * Results that expire within 24 hours with no verified copy (the copies are checked first, and a lost
   * one is fetched again): one notice naming how many, once per job per run.
   */
  async warnExpiring(): Promise<string[]> {
    await this.deps.downloads.checkCopies({ deep: false });
    // Rows of runs whose copy was lost, or that expire unsaved, are queued first (when the archive is on).
    await this.sync({ rowsOnly: true });
    const now = this.now();
    const expiring = this.deps.jobs({ phases: ['completed'], expiresAfter: now, expiresBefore: now + DAY });
    const saved = this.jobsWith(
      expiring.map((job) => job.id),
      (d) => d.state === 'saved',
    );
    const atRisk: JobRecord[] = [];
    for (const job of expiring) {
      if (
        this.warned.has(job.id) ||
        unavailableReason(job, now) !== null ||
        job.expiresAt === null ||
        job.expiresAt - now > DAY ||
        // A batch names its own rows (its warning says which batch to save).
        job.purpose.type === 'batch-row'
      )
        continue;
      if (!saved.has(job.id)) atRisk.push(job);
    }
    if (atRisk.length === 0) return [];
    for (const job of atRisk) this.warned.add(job.id);
    const first = atRisk[0];
    this.deps.warn(
      `${atRisk.length} result${atRisk.length === 1 ? '' : 's'} expire${atRisk.length === 1 ? 's' : ''} within 24 hours unsaved`,
      `${first.summary}${atRisk.length > 1 ? ` and ${atRisk.length - 1} more` : ''}. Select them in the Library and choose Download… to keep a copy.`,
    );
    return atRisk.map((job) => job.id);
  }
}
