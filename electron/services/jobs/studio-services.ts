import { join } from 'node:path';
import { CatalogueService } from '../catalogue/catalogue-service';
import { modelPriceEstimator } from '../catalogue/model-prices';
import { ConnectionManager } from '../connections/connection-manager';
import type { HostBase } from '../host/types';
import type { ProjectLibrary } from '../projects/project-library';
import { ProgressAggregator } from '../system/progress';
import { appSettingsSpec } from '../system/settings-store';
import { summariseBatch, type BatchView } from '../../common/bridge/batches';
import { BatchRunner } from '../voices/batch-runner';
import { BatchStore } from '../voices/batch-store';
import { JobEngine } from './engine';
import { FileLedgerStorage, type LedgerStorage } from './ledger';
import { JobReactor } from './reactor';

/**
 * The connection manager, job engine, reactor, catalogue and progress bar a host shares between its
 * domains. Built once, explicitly, by the composition (createDomains); nothing looks them up later.
 */
export interface StudioServices {
  connections: ConnectionManager;
  jobs: JobEngine;
  reactor: JobReactor;
  /** Batch voiceovers: sent through `jobs`, stopped before it on quit. */
  batches: BatchRunner;
  catalogue: CatalogueService;
  progress: ProgressAggregator;
  /** A desktop notification where the host has them, else a notice (a campaign's end uses it too). */
  notify(title: string, body: string, outcome: 'completed' | 'failed'): void;
}

export interface StudioServiceOverrides {
  storage?: LedgerStorage;
  fetch?: typeof globalThis.fetch;
}

/** What the shared services use of the host. */
export type StudioHost = Pick<HostBase, 'createStore' | 'dataDir' | 'emit' | 'log' | 'notices' | 'platform' | 'sandbox' | 'vault'>;

export function createStudioServices(base: StudioHost, projects: ProjectLibrary, overrides: StudioServiceOverrides = {}): StudioServices {
  const clock = { now: () => Date.now() };
  const progress = new ProgressAggregator((fraction) => base.platform.setProgress?.(fraction));
  const jobsProgress = progress.source('jobs');
  const connections = new ConnectionManager({
    createStore: base.createStore,
    vault: base.vault,
    sandbox: () => base.sandbox(),
    clientOptions: { fetch: overrides.fetch, clock },
    onChange: (state) => base.emit('connections.changed', state),
  });
  const catalogue = new CatalogueService({ clock, connections });
  const settings = base.createStore(appSettingsSpec);
  // A desktop notification where the host has them; otherwise a notice the page shows as a toast.
  const notify = (title: string, body: string, outcome: 'completed' | 'failed'): void => {
    if (base.platform.notify) base.platform.notify(title, body);
    else base.notices.raise({ level: outcome === 'completed' ? 'success' : 'error', title, detail: body });
  };
  const jobs = new JobEngine({
    storage: overrides.storage ?? new FileLedgerStorage(join(base.dataDir, 'jobs'), base.log, undefined, (notice) => base.notices.raise(notice)),
    connections,
    clock,
    log: base.log,
    onChange: (job) => base.emit('jobs.changed', job),
    onRemove: (id) => base.emit('jobs.removed', { id }),
    notify,
    warn: (title, detail) => base.notices.raise({ level: 'warning', title, detail }),
    setProgress: (fraction) => jobsProgress.set(fraction),
    estimator: modelPriceEstimator((types) => catalogue.models(types)),
    spending: () => settings.get().spending,
    // Read before and after each create: what the create cost, where the service publishes no price.
    balance: async (id) => (await (await connections.client(id)).call('quotaInfo', {})).credit,
  });
  const reactor = new JobReactor({ engine: jobs, log: base.log });
  registerReactions(base, reactor, catalogue, projects);
  const batches = new BatchRunner({ engine: jobs, store: new BatchStore(base.dataDir), log: base.log, onChange: throttledBatchEvents(base), notify });
  return { connections, jobs, reactor, catalogue, progress, batches, notify };
}

/**
 * Loads the ledger and starts following jobs, then the reactor: called by the composition once every
 * domain has registered its reactions (the reactor refuses later ones), so the reactor's catch-up runs
 * every handler for jobs that ended while the studio was closed.
 */
export function startStudioServices({ jobs, reactor, batches }: Pick<StudioServices, 'jobs' | 'reactor' | 'batches'>): void {
  jobs.start();
  reactor.start();
  // Batches that were running when the studio stopped go on (the ledger says which rows were sent).
  void batches.resumeAll();
}

/** At most one `batches.changed` per batch every 250 ms (a thousand rows change often), the last one always sent. */
function throttledBatchEvents(base: Pick<HostBase, 'emit'>): (view: BatchView) => void {
  const pending = new Map<string, BatchView>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  return (view) => {
    pending.set(view.id, view);
    if (timers.has(view.id)) return;
    const timer = setTimeout(() => {
      timers.delete(view.id);
      const latest = pending.get(view.id);
      pending.delete(view.id);
      if (latest) base.emit('batches.changed', summariseBatch(latest));
    }, 250);
    timer.unref?.();
    timers.set(view.id, timer);
  };
}

/** What a job's end means, by purpose. Batches and the archive add theirs with reactor.on(). */
function registerReactions(base: Pick<HostBase, 'emit'>, reactor: JobReactor, catalogue: CatalogueService, projects: ProjectLibrary): void {
  reactor.on('scene-voiceover', async (job) => {
    if (job.purpose.type !== 'scene-voiceover' || job.phase !== 'completed' || !job.resultUrl) return;
    const { projectId, sceneId, scriptHash } = job.purpose;
    await projects.applyVoiceover(projectId, sceneId, scriptHash, job.resultUrl);
    base.emit('projects.voiceoverReady', { projectId, sceneId, scriptHash, audioUrl: job.resultUrl });
  });
  for (const type of ['avatar-upload', 'voice-clone'] as const) {
    reactor.on(type, async (job) => {
      // An upload that failed leaves the editor's Uploaded tab, where it showed as processing.
      if (job.phase !== 'completed' && type !== 'avatar-upload') return;
      catalogue.clear();
      base.emit('catalogue.changed', { reason: type });
    });
  }
}
