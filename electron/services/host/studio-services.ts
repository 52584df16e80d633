import { summariseBatch, type WholeBatch } from '../voices/batch-view';
import type { CatalogueService } from '../catalogue/catalogue-service';
import type { StudioHost, StudioServiceOverrides, StudioServices } from './studio-types';
import { JobReactor } from '../jobs/reactor';
import type { ProjectLibrary } from '../projects/project-library';
import { ProgressAggregator } from '../system/progress';
import { BatchRows } from '../voices/batch-rows';
import { RowEngine } from '../rows/engine/row-engine';
import { QueuedRuns } from '../rows/queue/queued-runs';
import type { RunAccount } from '../rows/engine/row-kind';
import { createEngineServices, type EngineOptions } from './engine-services';
import type { HostBase } from './types';

// The services several domains share, composed here in the host layer: they compose other services
// (the engine, the catalogue, batches), which a domain folder must not do.

export function createStudioServices(
  base: StudioHost,
  projects: ProjectLibrary,
  overrides: StudioServiceOverrides & Pick<EngineOptions, 'route' | 'ledger'>,
): StudioServices {
  const progress = new ProgressAggregator((fraction) => base.platform.setProgress?.(fraction));
  const jobsProgress = progress.source('jobs');
  // A desktop notification where the host has them; otherwise a notice the page shows as a toast.
  const notify = (title: string, body: string, outcome: 'completed' | 'failed'): void => {
    if (base.platform.notify) base.platform.notify(title, body);
    else base.notices.raise({ level: outcome === 'completed' ? 'success' : 'error', title, detail: body });
  };
  // Built as every host builds them (the command line too), so the spending policy cannot be left out.
  const { connections, target, catalogue, jobs, queries, callbacks } = createEngineServices(base, {
    route: overrides.route,
    limiter: overrides.limiter,
    storage: overrides.storage,
    ledger: overrides.ledger,
    callbacks: overrides.callbacks,
    connectionCallbacks: overrides.connectionCallbacks,
    accountCreates: overrides.shared?.creates,
    budget: overrides.shared?.budget,
    // A queued run's rows are held on its queue's Redis, beside every other studio's on the account.
    queueBudget: (queue, run) => queues.budget(queue, run),
    onConnectionsChange: (state) => base.emit('connections.changed', state),
    reports: {
      onChange: (job) => base.emit('jobs.changed', job),
      onRemove: (id) => base.emit('jobs.removed', { id }),
      notify,
      setProgress: (fraction) => jobsProgress.set(fraction),
    },
  });
  const reactor = new JobReactor({ engine: jobs, log: base.log });
  registerReactions(base, reactor, catalogue, projects);
  // One row engine for batches and campaigns: one pacer per connection, whichever runs send on it.
  // A queued run records the account its studio prices it on and the storage its links go to; a worker
  // serving another account, or putting its pictures in another storage, makes none of its rows.
  const account = async (runId: string): Promise<RunAccount | null> => {
    const own = (await target.client((await target.active()).id)).account(runId);
    return own && { ...own, storage: (await overrides.runStorage?.()) ?? null };
  };
  const queues = new QueuedRuns({ log: base.log, vault: base.vault, account });
  const connection = async () => (await target.active()).id;
  const rows = new RowEngine({ jobs, log: base.log, connection, remote: queues, intents: overrides.shared?.intents });
  for (const type of ['batch-row', 'campaign-row'] as const) reactor.on(type, (job) => rows.jobEnded(job));
  const batches = new BatchRows({
    rows,
    runs: overrides.runs,
    queries,
    subscribe: (listener) => jobs.subscribe(listener),
    log: base.log,
    onChange: throttledBatchEvents(base),
    notify,
  });
  return {
    connections,
    target,
    jobs,
    queries,
    reactor,
    rows,
    queues,
    catalogue,
    progress,
    batches,
    notify,
    account,
    callbacks,
  };
}

/**
 * Loads the ledger and starts following jobs, then the reactor: called by the composition once every
 * domain has registered its reactions (the reactor refuses later ones), so the reactor's catch-up runs
 * every handler for jobs that ended while the studio was closed. With `resume`, batches that were
 * running when the studio stopped go on (the ledger says which rows were sent).
 */
export function startStudioServices(
  { jobs, reactor, batches }: Pick<StudioServices, 'jobs' | 'reactor' | 'batches'>,
  { resume }: { resume: boolean },
): void {
  jobs.start();
  reactor.start();
  if (resume) void batches.resumeAll();
}

/** At most one `batches.changed` per batch every 250 ms (a thousand rows change often), the last one always sent. */
function throttledBatchEvents(base: Pick<HostBase, 'emit'>): (view: WholeBatch) => void {
  const pending = new Map<string, WholeBatch>();
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
function registerReactions(
  base: Pick<HostBase, 'emit'>,
  reactor: JobReactor,
  catalogue: CatalogueService,
  projects: ProjectLibrary,
): void {
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
