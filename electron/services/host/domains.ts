import type { SharedRecords } from '../rows/engine/row-engine-deps';
import type { StudioServiceOverrides } from './studio-types';
import type { RowMaker } from '../rows/queue/row-worker';
import type { RunAccount } from '../rows/engine/row-kind';
import { campaignRowMaker } from '../campaign/campaign-worker';
import { rowProject } from '../campaign/row-project';
import { everyAvatar } from '../catalogue/every-avatar';
import { avatarLinksOf, withCatalogueAvatars } from '../../common/composition/avatar-links';
import { batchRowMaker } from '../voices/batch-worker';
import { perUserDataDir } from './data-dir';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { callChannels, type BridgeCalls, type ChosenSheet } from '../../common/bridge';
import { createSettingsDomain } from '../system/settings-domain';
import { createSystemDomain } from '../system/system-domain';
import { probeBinaries } from '../system/binary-status';
import { createConnectionsDomain } from '../connections/connections-domain';
import { createJobsDomain } from '../jobs/jobs-domain';
import { createStudioServices, startStudioServices } from './studio-services';
import { ProjectLibrary } from '../projects/project-library';
import { createCatalogueDomain } from '../catalogue/catalogue-domain';
import { createProjectsDomain } from '../projects/projects-domain';
import { TemplateLibrary, starterTemplatesDir } from '../projects/templates';
import { catalogueFactsOf, createTemplatesDomain, startProject } from '../projects/templates-domain';
import { createMediaDomain, type MediaDomain } from '../media/media-domain';
import { createHostStorage, createStorageDomain } from '../storage/storage-domain';
import { createUploadsDomain } from '../storage/uploads-domain';
import { createArchive, createDownloadsDomain, createDownloadsService } from '../downloads/downloads-domain';
import type { ExportFile } from '../downloads/library-export';
import { libraryQuestions } from './library-questions';
import { LocalMediaLinker, notChosen } from '../storage/local-media-linker';
import { openResultBucket } from '../storage/result-bucket';
import { storageAddress, storageIdentity, unreachableLinks, workerMediaProblem } from '../storage/queue-links';
import { LocalGrants, localGrantsSpec } from '../media/local-grants';
import { createFacesDomain, createFacesServices } from '../faces/faces-domain';
import { createPlacementDomain } from '../placement/placement-domain';
import { createBatchesDomain } from '../voices/batches-domain';
import { MAX_BATCH_ROWS } from '../voices/batch-input';
import { MAX_CAMPAIGN_ROWS } from '../../common/campaign/rows';
import { importSheet, importSheetPath } from '../sheets/sheet-import';
import { SHEET_MAX_BYTES } from '../sheets/read-sheet';
import { createToolDeps, createToolsDomain } from '../tools/tools-domain';
import { createAvatarsDomain } from '../avatars/avatars-domain';
import { createTextDomain, createTextPictures } from '../text/text-domain';
import { createCaptionsDomain } from '../media/captions-domain';
import {
  campaignMusicMixer,
  campaignVoiceParts,
  voiceLengthOf,
  campaignStills,
  createCampaignRows,
  throttledCampaignEvents,
} from '../campaign/campaign-services';
import { createCampaignsDomain } from '../campaign/campaigns-domain';
import { createCampaignPagesDomain } from '../campaign/campaign-pages-domain';
import { SpeechEstimator } from '../campaign/speech-estimate';
import { hostCaptionBurn } from '../downloads/caption-burn-domain';
import type { EngineOptions } from './engine-services';
import { adoptLegacyCopies } from './legacy-copies';
import { openRecords, type LedgerOptions } from '../records/open-ledger';
import type { KnownCopies } from '../records/job-filter-sql';
import type { Handlers, HostBase } from './types';
import type { ClientLimiter } from '../connections/connection-manager';

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

interface AnyModule {
  handlers: object;
  dispose?(): Promise<void>;
}

function mergeHandlers<T extends readonly AnyModule[]>(modules: T): UnionToIntersection<T[number]['handlers']> {
  const merged: Record<string, unknown> = {};
  for (const module of modules) {
    for (const [channel, handler] of Object.entries(module.handlers)) {
      if (Object.hasOwn(merged, channel)) throw new Error(`Two domains handle the bridge call "${channel}"`);
      merged[channel] = handler;
    }
  }
  return merged as UnionToIntersection<T[number]['handlers']>;
}

/**
 * What starts with a host. `resume` (the desktop app, the web host): the engine follows every unfinished
 * job, the reactor acts on their ends, batches and campaigns left running go on and the archive checks
 * its copies. `follow` (a command-line run that owns the folder): the engine and the reactor only, so a
 * command that lists jobs never sends a batch's rows; a batch or campaign goes on when its own command
 * runs again. `read-only` (a command line beside a studio it cannot reach): the ledger is read, and
 * nothing is followed or written.
 */
export type HostStart = 'resume' | 'follow' | 'read-only';

export interface DomainOptions {
  /** Where new work goes; default the folder's active connection (see EngineOptions.route). */
  route?: EngineOptions['route'];
  /** Where a storage may be declared (STUDIO_S3_*); default process.env. */
  env?: Record<string, string | undefined>;
  start?: HostStart;
  /** What a `studio worker` shares with the other workers in Redis; none: this host alone. */
  shared?: SharedRecords;
  /** Where the service's requests take their turns (a worker's are shared with the other workers in Redis). */
  limiter?: ClientLimiter;
  /** A worker's callback addresses (--callback-url); none: jobs are polled. */
  callbacks?: StudioServiceOverrides['callbacks'];
  /** How the first start's import of the old job journal is going (the hosts print it). */
  onImport?: NonNullable<EngineOptions['ledger']>['onImport'];
  /** How the first start's import of the other old records (links, copies, runs) is going (the hosts print it). */
  onStage?: LedgerOptions['onStage'];
}

export interface Domains {
  handlers: Handlers<BridgeCalls>;
  /** A file dropped on a page that cannot see its path (the web host) becomes a granted local file. */
  importFile: MediaDomain['importFile'];
  /** A file the desktop app's preload says the user dropped (its own path): probed, then granted. */
  importPath: MediaDomain['importPath'];
  /** A spreadsheet picked for a batch, by its bytes (the web host) or its path (the desktop app). */
  importSheet(name: string, body: Readable): Promise<ChosenSheet>;
  importSheetPath(path: string): Promise<ChosenSheet>;
  /** A download's saved file, checked to be the bytes written; null when it is not (the web host serves it to its page). */
  savedFile(id: string): Promise<string | null>;
  /** An "Export CSV" the web host wrote for its page, taken by its id (fetched once); null when none. */
  exportFile(id: string): Promise<ExportFile | null>;
  /**
   * How this host makes a queued run's rows as a worker, its results saved into `folder` and, given a
   * storage (its name or id), copied to its bucket; a storage that cannot be one is refused here.
   */
  rowMakers(folder: string, bucket?: string): Promise<RowMaker[]>;
  /** The account this host serves, as a queued run records it (null: it has no credentials). */
  rowAccount(runId: string): Promise<RunAccount | null>;
  /** Why the pictures this host renders for a row could not be fetched by the service at `origin` (null: they can). */
  rowMedia(origin: string): Promise<string | null>;
  /** Lets every domain finish or abort its work (on quit); never throws. */
  disposeAll(): Promise<void>;
}

/**
 * Builds every domain against one host base. To add a domain: import its factory and add one line to
 * the list. The typed assignment below fails to compile while any bridge call lacks a handler.
 *
 * Services shared between domains are built first, in the order they need each other, and handed to
 * the domains that use them; a domain never calls another domain's bridge handler. The job engine and
 * its reactor start last, once every domain has registered its reactions.
 */
export function createDomains(base: HostBase, options: DomainOptions = {}): Domains {
  const start = options.start ?? 'resume';
  // The folder's records database, opened once for this process: the job ledger, the uploader's links,
  // the download queue and the runs of campaigns and batches share its one connection. A host that only
  // reads opens it read-only: the owner beside it writes.
  const records = openRecords(base.dataDir, {
    readOnly: start === 'read-only',
    onImport: options.onImport,
    onStage: options.onStage,
    log: base.log,
    notify: (notice) => base.notices.raise(notice),
  });
  const storage = createHostStorage(base, records.uploads, options.env);
  const grants = new LocalGrants(base.createStore(localGrantsSpec), [join(base.dataDir, 'media')]);
  const sheets = {
    dir: join(base.dataDir, 'imports'),
    grant: (path: string) => grants.grant(path),
    // Chosen before it is known what for: the most any reader takes (each reads it with its own limit).
    limits: { maxRows: Math.max(MAX_BATCH_ROWS, MAX_CAMPAIGN_ROWS), maxBytes: SHEET_MAX_BYTES },
  };
  const linker = new LocalMediaLinker({
    storage,
    grants,
    onProgress: (progress) => base.emit('uploads.progress', progress),
  });
  const projects = new ProjectLibrary({ dataDir: base.dataDir, createStore: base.createStore });
  const studio = createStudioServices(base, projects, {
    route: options.route,
    shared: options.shared,
    limiter: options.limiter,
    callbacks: options.callbacks,
    storage: records.ledger,
    runs: records.runs,
    // The desktop app and the web host take callbacks by each connection's setting; a command line never listens.
    connectionCallbacks: start === 'resume',
    runStorage: () => storageIdentity(storage.storages, () => base.sandbox()),
  });
  // Downloads left queued go on with the studio; a command line leaves them to it and starts only its own.
  const downloads = createDownloadsService(base, studio, projects, {
    resumeQueued: start === 'resume',
    records: records.downloads,
  });
  // The archive's folders follow a data folder that was named (--data-dir or STUDIO_DATA_DIR), not the per-user one.
  const archive = createArchive(base, downloads, studio, perUserDataDir(), { keepHere: start === 'resume' });
  const text = createTextPictures(base.dataDir, (path) => grants.grant(path));
  const media = createMediaDomain(base, {
    grants,
    // The preview overlays the same pictures of text elements that are sent at submit.
    flattenText: (project) => text.flatten(project),
    progress: studio.progress.source('renders'),
    // Previews and the editor read a result the studio saved from disk, also after its link expired.
    savedCopies: (url) => downloads.savedCopyOf(url),
    // The preview's draft voice takes the gender and accent of the voice the service would speak with.
    voiceList: async (voiceId) => (await studio.catalogue.voices({})).find((v) => v.voice_id === voiceId) ?? null,
  });
  const templates = new TemplateLibrary({
    dataDir: base.dataDir,
    startersDir: starterTemplatesDir(),
    pathOf: (url) => grants.pathOf(url),
    grant: (path) => grants.grant(path),
  });
  const templatesDomain = createTemplatesDomain(base, templates);
  const startNew = (request: Parameters<typeof startProject>[0]) =>
    startProject(request, {
      templates,
      brandKit: templatesDomain.brandKit,
      measure: async (style) => {
        const { width, height } = await text.rasteriser.layout(style);
        return { width, height };
      },
      catalogue: () => catalogueFactsOf(studio.catalogue),
      importsDir: join(base.dataDir, 'imports'),
      log: base.log,
    });
  // Campaigns: text drawn and files linked as the editor's Create does (only files the user chose).
  const linkForCampaign = linker.linkFor('campaign');
  // The avatars of the connection sending now: an avatar chosen from a catalogue is sent with its link there.
  const avatars = async () => avatarLinksOf(await everyAvatar(studio.catalogue).catch(() => []));
  const campaigns = createCampaignRows({
    dataDir: base.dataDir,
    runs: records.runs,
    engine: studio.jobs,
    rows: studio.rows,
    storage,
    log: base.log,
    notify: studio.notify,
    grant: (path) => grants.grant(path),
    linkLocal: async (value) => (await linkForCampaign(value)).value as Record<string, unknown>,
    mixMusic: campaignMusicMixer(
      media.toolkit.music,
      (ref) => media.toolkit.cache.localPath(ref),
      (path) => grants.grant(path),
    ),
    voicePart: campaignVoiceParts(
      {
        mixer: media.toolkit.music,
        localPath: (ref) => media.toolkit.cache.localPath(ref),
        cut: media.toolkit.tools.cutAudio.bind(media.toolkit.tools),
        dir: media.toolkit.dirs.music,
      },
      (path) => grants.grant(path),
    ),
    placement: async () => {
      const { id } = await studio.target.active();
      return (await studio.connections.state()).connections.find((c) => c.id === id)?.placement;
    },
    avatars,
    onChange: throttledCampaignEvents((summary) => base.emit('campaigns.changed', summary)),
    // A voiceover's length: read in memory, or from the media cache when its scene mixes or cuts it.
    voiceLength: voiceLengthOf(
      (url) => media.toolkit.cache.localPath(url),
      (path) => media.toolkit.prober.probe(path),
      (url, maxBytes) => media.toolkit.cache.smallFile(url, maxBytes),
    ),
    // A row's video is saved and recorded like every other copy of a result.
    saveCopy: async (url, target, { replace }) =>
      void (await downloads.copies.saveLink({ url, path: target, savedBy: 'campaign', keepOthers: !replace })),
  });
  // "Saved" is the downloads' record checked against the disk, in the jobs' own database: the job queries
  // read it there once what the manager changed is written.
  const knownCopies = async (): Promise<KnownCopies> => {
    await downloads.ready;
    await downloads.manager.recorded();
    return { savedInDownloads: true };
  };
  const library = libraryQuestions({
    dataDir: base.dataDir,
    queries: studio.queries,
    flush: () => studio.jobs.flush(),
    knownCopies,
    projectName: (id) => projects.nameOf(id),
  });
  const modules = [
    createSystemDomain(base, probeBinaries),
    createSettingsDomain(base),
    createConnectionsDomain(studio),
    createJobsDomain(studio, { known: knownCopies }),
    createCatalogueDomain(studio),
    createProjectsDomain(base, projects, startNew),
    templatesDomain,
    media,
    createStorageDomain(storage),
    createUploadsDomain(linker),
    createDownloadsDomain(base, downloads, archive, media.hostFiles, library),
    createFacesDomain(createFacesServices(base, studio, grants, media), {
      // Beside the studio that owns the folder, its sessions are its own; a command line's outlive its run.
      closeLeftOpen: start !== 'read-only',
      closeOnQuit: base.host !== 'cli',
    }),
    createPlacementDomain(base, studio, storage),
    // A batch's table finds rows whose saved file is lost by their links, once the earlier versions' copies are in.
    createBatchesDomain(base, studio, grants, downloads.copies, {}, () =>
      downloads.ready.then(() => downloads.manager.lookup.lostLinks('batch')),
    ),
    createToolsDomain(createToolDeps(studio, media.probe, linker.linkFor('tools'))),
    // A chosen local file is looked at before it goes up, in every host: one the service would not take is refused.
    createAvatarsDomain(base, studio, linker.linkFor('avatar'), async (reference) => {
      if (grants.pathOf(reference) === null) throw notChosen(reference);
      return media.probe(reference);
    }),
    createTextDomain(text, undefined, base.dataDir),
    createCaptionsDomain(media.toolkit),
    createCampaignsDomain(studio, {
      runner: campaigns,
      openProject: async (id) => (await projects.open(id)).project,
      pathOf: (ref) => grants.pathOf(ref),
      checkLinks: (urls) => media.checkLinks(urls),
      speech: new SpeechEstimator(media.toolkit.draftVoice),
      stills: campaignStills(media.toolkit, (project) => text.flatten(project)),
      openPath: base.platform.openPath,
      folderCopies: (folder) => downloads.copies.inFolder(folder),
      queue: {
        address: (url) => studio.queues.address(url),
        link: async <T>(value: T) => (await linkForCampaign(value)).value as T,
        workers: (address) => studio.queues.workers(address),
        counts: (address) => studio.queues.counts(address),
        // Each row that will be sent, as its body is filled: the links it names for the service to fetch.
        unreachable: async (record) =>
          unreachableLinks({
            service: (await studio.target.client((await studio.target.active()).id)).baseUrl,
            value: await avatars().then((links) =>
              record.rows
                .filter((r) => r.state !== 'invalid')
                .map((r) => withCatalogueAvatars(rowProject(record, r), links)),
            ),
            storage: async () => storageAddress(storage.storages, () => base.sandbox()),
          }),
      },
    }),
    // A grid's page of rows reads its files by the rows' links, once the copies of earlier versions are in.
    createCampaignPagesDomain(studio, campaigns, {
      lostLinks: () => downloads.ready.then(() => downloads.manager.lookup.lostLinks('campaign')),
      ofLinks: (urls) => downloads.ready.then(() => downloads.manager.lookup.ofLinks(urls)),
    }),
    hostCaptionBurn(base, downloads, projects, media.toolkit, text.rasteriser),
  ] as const;
  if (start === 'read-only') studio.jobs.start({ poll: false, readOnly: true });
  else startStudioServices(studio, { resume: start === 'resume' });
  // Copies that earlier versions noted outside the queue join the one record before it is read.
  if (start !== 'read-only') downloads.ready = adoptLegacyCopies(base, downloads, studio, records);
  if (start === 'resume') {
    // The active connection's callback receiver; one that cannot listen is said once, and its jobs are polled.
    studio.callbacks?.reconcile().catch((error: unknown) =>
      base.notices.raise({
        level: 'warning',
        title: 'Callbacks are off',
        detail: error instanceof Error ? error.message : String(error),
      }),
    );
    void campaigns.resumeAll();
    archive.start();
  }

  const handlers: Handlers<BridgeCalls> = mergeHandlers(modules);
  const missing = callChannels.filter(
    (channel) => typeof (handlers as Record<string, unknown>)[channel] !== 'function',
  );
  if (missing.length > 0) throw new Error(`No handler for bridge calls: ${missing.join(', ')}`);

  return {
    handlers,
    importFile: (name, body) => media.importFile(name, body),
    importPath: (path) => media.importPath(path),
    importSheet: (name, body) => importSheet(sheets, name, body),
    importSheetPath: (path) => importSheetPath(sheets, path),
    savedFile: (id) => downloads.verifiedPath(id),
    exportFile: async (id) => library.exports.take(id),
    rowAccount: (runId) => studio.account(runId),
    rowMedia: async (origin) =>
      workerMediaProblem(origin, await storageAddress(storage.storages, () => base.sandbox())),
    async rowMakers(folder, bucket) {
      const results = bucket === undefined ? undefined : await openResultBucket(storage.storages, bucket);
      return [
        campaignRowMaker(
          campaigns,
          folder,
          (match, scope) => studio.jobs.list(match, scope),
          results,
          downloads.manager.copies,
        ),
        batchRowMaker(studio.batches, (match, scope) => studio.jobs.list(match, scope)),
      ];
    },
    async disposeAll() {
      // The queues close beside the domains: a queued row's step waiting on a Redis that has gone lets go,
      // so the campaigns' and batches' wait for their steps ends (the engine stopped first, synchronously).
      const results = await Promise.allSettled([
        ...modules.map((module: AnyModule) => module.dispose?.()),
        studio.queues.close(),
      ]);
      for (const result of results) {
        if (result.status === 'rejected') base.log.error('a domain failed to shut down', { error: result.reason });
      }
    },
  };
}
