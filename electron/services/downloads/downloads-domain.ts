import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { downloadsCalls } from '../../common/bridge/downloads';
import type { JobSelection } from '../../common/bridge/job-pages';
import { WEB_BRIDGE_PATHS } from '../../common/bridge/contract';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import type { StudioServices } from '../host/studio-types';
import type { ProjectLibrary } from '../projects/project-library';
import { appSettingsSpec } from '../system/settings-store';
import { DownloadsService, suggestedFolder } from './downloads-service';
import { checkSaveFolder } from './save-folder';
import { ffprobeVerifier } from './verify';
import { Archive } from './archive';
import { ResultMediaReader, type ResultMediaDeps } from './result-media';
import { checkTemplate } from '../../common/file-names';
import { JobPurpose } from '../../common/jobs/purpose';
import { stepOf } from '../../common/jobs/steps';
import { CopyWatcher } from './copy-watcher';
import { lostCopiesNotice } from './lost-notice';
import type { DownloadRecords } from './queue-records';
import { queueSelection, type SelectionPages } from './selection-queue';
import { previewChosen, renameChosen } from './selection-actions';
import { exportCsv, type ExportSources } from './export-csv';

const HOUR = 3_600_000;

/** What the downloads service, the archive and the domain use of the host. */
export type DownloadsHost = Pick<
  HostBase,
  'dataDir' | 'createStore' | 'log' | 'emit' | 'notices' | 'platform' | 'sandbox'
>;

/** The web host's address for a saved copy (its page plays and opens copies there). */
const savedCopyUrl = (id: string) => `${WEB_BRIDGE_PATHS.saved}${encodeURIComponent(id)}`;

/**
 * A download run or an archive catch-up ended: said in the page always, and as a system notification
 * while the user is elsewhere, by the desktop host itself, or by the page where the browser allows it.
 */
function tell(
  base: Pick<HostBase, 'platform' | 'notices'>,
  notifications: () => boolean,
  title: string,
  body: string,
  ok: boolean,
): void {
  base.platform.notify?.(title, body);
  base.notices.raise({
    level: ok ? 'success' : 'warning',
    title,
    detail: body,
    ...(base.platform.notify ? {} : { system: notifications() }),
  });
}

/**
 * The download service of a host (the queue's record has one writer), built once by the composition
 * (createDomains) and shared by the domain and the archive.
 */
export function createDownloadsService(
  base: DownloadsHost,
  { jobs, progress }: Pick<StudioServices, 'jobs' | 'progress'>,
  projects: ProjectLibrary,
  { resumeQueued = true, records }: { resumeQueued?: boolean; records: DownloadRecords },
): DownloadsService {
  const settings = base.createStore(appSettingsSpec);
  // The taskbar / dock bar: downloads are one share of the shared progress aggregator.
  const bar = progress.source('downloads');
  return new DownloadsService({
    dataDir: base.dataDir,
    resumeQueued,
    records,
    createStore: base.createStore,
    log: base.log,
    job: (id) => jobs.record(id),
    jobs: (match, scope) => jobs.records(match, scope),
    projectName: (id) => projects.nameOf(id),
    project: (id) => projects.read(id),
    verify: ffprobeVerifier(() => settings.get()),
    onChange: (view) => base.emit('downloads.changed', view),
    onTotals: (totals) => {
      base.emit('downloads.progress', totals);
      bar.set(totals.active > 0 ? totals.fraction : null);
    },
    notify: (title, body, ok) => tell(base, () => settings.get().notifications, title, body, ok),
    sandbox: () => base.sandbox(),
  });
}

/**
 * The watcher over the folders that hold copies (copy-watcher.ts): what it finds lost is shown at once
 * (each change is a `downloads.changed` event), fetched back where the rule is to, and told in a notice
 * with the time each link has left.
 */
function watchCopies(base: DownloadsHost, service: DownloadsService, notifications: () => boolean): CopyWatcher {
  const watcher = new CopyWatcher({
    copies: () => service.manager.lookup.copies(),
    copiesUnder: (folder) => service.manager.lookup.copiesUnder(folder),
    check: async (ids) => {
      const moved = await service.checkCopies({ deep: false, ids });
      const { restoreLost } = service.preferences.get();
      const notice = lostCopiesNotice(moved, (id) => service.jobOrNull(id), Date.now(), restoreLost);
      if (notice) tell(base, notifications, notice.title, notice.body, false);
    },
    log: base.log,
  });
  // A copy saved in a folder not watched yet gets its folder watched.
  service.changes.add((view) => {
    if (view.state === 'saved' && view.savedPath !== null) watcher.followSoon(dirname(view.savedPath));
  });
  return watcher;
}

export interface ArchiveRunner {
  archive: Archive;
  /** Once the engine has loaded its ledger: names results about to expire, then again every hour. */
  start(): void;
  stop(): void;
}

/**
 * The archive: every job that completes is queued by a reaction (once per job, recorded in the ledger;
 * the reactor's catch-up at start covers results that completed while the studio was closed, and a
 * reaction that failed is tried again at the next start). Registered before the reactor starts. Once
 * an hour, results about to expire unsaved are named.
 *
 * Batch rows are the exception: the batch's Save puts them in the folder the user chose, named from its
 * template, with a manifest. A second copy in the archive doubled the disk a batch took, under names
 * built from the script. The archive neither copies them nor warns about them; the batches warn about
 * their own done rows that expire with no intact copy in the record of copies, naming the batch to save.
 */
/** How long after a start its look at every saved copy begins. */
const START_CHECK_AFTER_MS = 3_000;

export function createArchive(
  base: DownloadsHost,
  service: DownloadsService,
  {
    jobs,
    reactor,
    batches,
  }: Pick<StudioServices, 'jobs' | 'reactor'> & { batches?: Pick<StudioServices['batches'], 'warnExpiring'> },
  defaultDataDir?: string,
  { keepHere = true, checkAfterMs = START_CHECK_AFTER_MS }: { keepHere?: boolean; checkAfterMs?: number } = {},
): ArchiveRunner {
  const settings = base.createStore(appSettingsSpec);
  const archive = new Archive({
    downloads: service,
    dataDir: base.dataDir,
    defaultDataDir,
    createStore: base.createStore,
    // A step of something else (a campaign row's voiceover, a scene's) is not a result to keep; a batch's
    // and a campaign's rows are saved by them, and the archive protects them (Archive.sync).
    jobs: (scope) => jobs.records((job) => stepOf(job) === null, scope),
    log: base.log,
    // Whether a result's link still works is asked of one clock: the downloads'.
    now: () => service.now(),
    warn: (title, body) => tell(base, () => settings.get().notifications, title, body, false),
  });
  for (const option of JobPurpose.options) {
    if (option.shape.type.value === 'batch-row' || option.shape.type.value === 'campaign-row') continue;
    reactor.on(option.shape.type.value, async (job) => {
      if (job.phase !== 'completed') return;
      // A host that does not go on with downloads after it stops (a command line) leaves the copy to the studio.
      if (!keepHere) return 'later';
      await archive.keep(job);
    });
  }
  let timer: ReturnType<typeof setInterval> | undefined;
  let checking: ReturnType<typeof setTimeout> | undefined;
  const watcher = watchCopies(base, service, () => settings.get().notifications);
  return {
    archive,
    start() {
      const warnBatches = () =>
        void batches
          ?.warnExpiring(service.copies)
          .catch((error: unknown) => base.log.warn('batch expiry not checked', { error }));
      // Every copy looked at again at start (a disk unmounted, a file edited while the studio was
      // closed: another length or modification time, which reads it again); the expiry warning then
      // counts only verified copies. Not every byte of every copy: a folder of a million jobs holds a
      // third of a million videos, and hashing them all at each start read terabytes.
      // It begins a moment after the start: the page and its first answers come first (a third of a
      // million copies looked at meanwhile doubled the time a host took to give its address).
      checking ??= setTimeout(() => {
        void service.ready
          .then(() => service.checkCopies({ deep: false }))
          .catch((error: unknown) => base.log.warn('saved copies not checked', { error }))
          .then(() => archive.warnExpiring())
          // Watched from then on: the disk's changes are followed as they happen, not once an hour.
          // Not once the host stops: a watch started after it would hold the process open.
          .finally(() => checking !== undefined && watcher.start());
      }, checkAfterMs);
      checking.unref?.();
      warnBatches();
      timer ??= setInterval(() => {
        void archive.warnExpiring();
        warnBatches();
      }, HOUR);
      timer.unref?.();
    },
    stop: () => {
      clearInterval(timer);
      clearTimeout(checking);
      checking = undefined;
      watcher.stop();
    },
  };
}

/** The Library's questions the host answers from the jobs' records, bound to what the page asked. */
export interface LibraryQuestions extends ExportSources {
  /** A selection's ids, a keyset page at a time. */
  selectionPages(selection: JobSelection): Promise<SelectionPages>;
}

export function createDownloadsDomain(
  base: Pick<HostBase, 'platform' | 'dataDir' | 'emit' | 'log'>,
  service: DownloadsService,
  { archive, stop }: ArchiveRunner,
  mediaFiles: Pick<ResultMediaDeps, 'probe' | 'frame'>,
  library?: LibraryQuestions,
): DomainModule<typeof downloadsCalls> {
  const { manager } = service;
  const selectionPages = library?.selectionPages;
  const media = new ResultMediaReader({
    ...mediaFiles,
    dir: join(base.dataDir, 'media', 'library'),
    job: (id) => service.jobOrNull(id),
    downloads: (jobId) => manager.forJob(jobId),
    // The desktop app opens a copy with the system's player and gives its page no address for it.
    playUrl: (entry) => (base.platform.openPath ? null : savedCopyUrl(entry.id)),
    emit: (facts) => base.emit('downloads.mediaRead', facts),
    log: base.log,
  });
  const guard = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw new StudioError((error as Error).message, 'not-found');
    }
  };
  return {
    handlers: {
      'downloads.list': async () => {
        await service.ready;
        return manager.list();
      },
      'downloads.ofJobs': async (jobIds) => {
        await service.ready;
        return manager.lookup.ofJobs(jobIds).flatMap((entries) => entries.reverse());
      },
      // Each copy found lost is written and sent as a `downloads.changed` as it is found (verifySaved).
      'downloads.check': async () => {
        await service.ready;
        const tally = { checked: 0 };
        const moved = await service.checkCopies({ deep: false, tally });
        return { checked: tally.checked, lost: moved.filter((m) => m.state !== 'saved').length };
      },
      'downloads.pauseAll': async () => manager.pauseAll(),
      'downloads.cancelAll': async () => manager.cancelAll(),
      'downloads.totals': async () => manager.totals(),
      'downloads.start': async (request) => {
        try {
          const { selection, ...rest } = request;
          const origin = request.origin ?? 'library';
          // A selection of any size is walked a page at a time into the queue's backlog (selection-queue.ts).
          if (selection && selectionPages)
            return await queueSelection(
              service,
              await selectionPages(selection),
              { ...rest, origin },
              (n, skipped, stopped) =>
                service.tell(
                  stopped ? 'Downloads stopped' : 'Downloads queued',
                  `${n.toLocaleString('en')} file${n === 1 ? '' : 's'} ${stopped ? 'were queued before the rest was cancelled' : 'queued'}${skipped ? `; ${skipped.toLocaleString('en')} skipped (not finished, or no result to save)` : ''}.`,
                  !stopped,
                ),
            );
          if (selection)
            throw new StudioError('This host cannot choose jobs by a filter; tick them instead.', 'unsupported');
          return await service.start({ ...rest, jobIds: request.jobIds, origin });
        } catch (error) {
          throw new StudioError((error as Error).message, 'invalid-argument');
        }
      },
      'downloads.restore': async (copies) => service.restore(copies, 'cli'),
      'downloads.saveCopy': async ({ jobId, path, origin }) => {
        if (!isAbsolute(path)) throw new StudioError('The file to save needs a full path.', 'invalid-argument');
        try {
          return (await service.copies.save({ jobId, path, savedBy: origin })).copy;
        } catch (error) {
          throw new StudioError((error as Error).message, 'invalid-argument');
        }
      },
      'downloads.preview': async (request) => {
        try {
          return await previewChosen(service, request, selectionPages);
        } catch (error) {
          throw new StudioError((error as Error).message, 'invalid-argument');
        }
      },
      'downloads.rename': async (request) => {
        try {
          return await renameChosen(service, request, selectionPages);
        } catch (error) {
          throw new StudioError((error as Error).message, 'invalid-argument');
        }
      },
      // Answered once the transfer lets go: one renamed already ends saved, not paused.
      'downloads.pause': async (id) => {
        guard(() => manager.pause(id));
        return manager.settled(id);
      },
      'downloads.resume': async (id) => guard(() => manager.resume(id)),
      'downloads.cancel': async (id) => {
        guard(() => manager.get(id));
        return manager.cancel(id);
      },
      'downloads.resumeAll': async () => manager.resumeAll(),
      'downloads.checkFolder': async (folder) => service.checkFolder(folder),
      'downloads.chooseFolder': async () =>
        base.platform.chooseFolder ? base.platform.chooseFolder({ title: 'Download results to…' }) : null,
      'downloads.showInFolder': async (id) => {
        const entry = guard(() => manager.get(id));
        if (!entry.savedPath) throw new StudioError('This download is not saved yet.', 'not-ready');
        if (!base.platform.openPath)
          throw new StudioError('This host cannot open folders; the saved path is shown instead.', 'unsupported');
        await base.platform.openPath(dirname(entry.savedPath));
      },
      'downloads.openCopy': async (id) => {
        const entry = guard(() => manager.get(id));
        const path = await service.verifiedPath(id);
        if (path === null)
          throw new StudioError(
            `This copy is not on disk as it was saved${entry.reason ? ` (${entry.reason})` : ''}.`,
            'not-ready',
          );
        if (base.platform.openPath) {
          await base.platform.openPath(path);
          return { url: null };
        }
        return { url: savedCopyUrl(id) };
      },
      'downloads.media': async (jobIds) => media.describe(jobIds),
      'downloads.exportCsv': async (query) => exportCsv(base, service, library, query),
      'downloads.archiveSettings': async () => archive.settings.get(),
      'downloads.setArchiveSettings': async (settings) => {
        const problem = checkTemplate(settings.template);
        if (problem) throw new StudioError(problem, 'invalid-argument');
        const next = { ...settings };
        if (settings.enabled) {
          for (const key of ['videoFolder', 'audioFolder'] as const) {
            // Before the folder is made: on a drive that is gone it would be made on the system disk.
            const gone = await manager.drives.check(resolve(settings[key].trim()));
            if (gone) throw new StudioError(gone, 'invalid-argument');
            const checked = await checkSaveFolder(settings[key], { create: true });
            if (!checked.ok) throw new StudioError(checked.message, 'invalid-argument');
            next[key] = checked.folder;
          }
        }
        archive.settings.set(next);
        void archive.sync();
        return next;
      },
      'downloads.transferSettings': async () => {
        const { concurrency, speedLimit, restoreLost } = service.preferences.get();
        return { concurrency, speedLimit, restoreLost };
      },
      'downloads.setTransferSettings': async (settings) => {
        service.preferences.update((p) => ({ ...p, ...settings }));
        manager.applySettings();
        return settings;
      },
      'downloads.preferences': async () => {
        const prefs = service.preferences.get();
        return {
          folder: prefs.folder ?? suggestedFolder(),
          template: prefs.template,
          canChooseFolder: base.platform.chooseFolder !== undefined,
          canShowInFolder: base.platform.openPath !== undefined,
        };
      },
    },
    dispose: async () => {
      stop();
      media.dispose();
      await service.dispose();
    },
  };
}
