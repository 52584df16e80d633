import type { QueuedRuns } from '../rows/queue/queued-runs';
import type { SharedRecords } from '../rows/engine/row-engine-deps';
import type { JobCallbacks } from '../jobs/job-callbacks';
import type { ConnectionCallbacks } from './connection-callbacks';
import type { CatalogueService } from '../catalogue/catalogue-service';
import type { ClientLimiter, ConnectionManager } from '../connections/connection-manager';
import type { HostBase } from './types';
import type { ProgressAggregator } from '../system/progress';
import type { BatchRows } from '../voices/batch-rows';
import type { EngineConnections, JobEngine } from '../jobs/engine';
import type { LedgerStorage } from '../jobs/ledger';
import type { JobReactor } from '../jobs/reactor';
import type { JobQueries } from '../records/job-queries';
import type { RowEngine } from '../rows/engine/row-engine';
import type { RunAccount, RunStorage } from '../rows/engine/row-kind';
import type { RunStores } from '../rows/engine/run-store';

/**
 * The connection manager, job engine, reactor, catalogue and progress bar a host shares between its
 * domains. Built once, explicitly, by the composition (host/studio-services.ts, called by createDomains);
 * nothing looks them up later. Only the shape lives here, in the host's face beside types.ts, for the
 * domains that take it: a domain folder that took it from another (jobs/) made the two import each other.
 */
export interface StudioServices {
  connections: ConnectionManager;
  /**
   * Where new work goes and the client that reaches it: the folder's active connection, unless the host
   * chose another for this run (a command line's --connection or --base-url). Every domain that sends or
   * reads through "the active connection" uses this, so the choice holds for all of them.
   */
  target: EngineConnections;
  jobs: JobEngine;
  /** Pages, counts and sums of the ledger's jobs by its database: nobody holds every job to answer them. */
  queries: JobQueries;
  reactor: JobReactor;
  /** The one row engine: batches and campaigns run their rows on it, at one pace per connection. */
  rows: RowEngine;
  /** Runs whose rows are made on a queue by workers: `rows` hands them over and takes their reports in. */
  queues: QueuedRuns;
  /** Batch voiceovers: rows of `rows`, sent through `jobs`, stopped before it on quit. */
  batches: BatchRows;
  catalogue: CatalogueService;
  progress: ProgressAggregator;
  /** A desktop notification where the host has them, else a notice (a campaign's end uses it too). */
  notify(title: string, body: string, outcome: 'completed' | 'failed'): void;
  /**
   * The account and storage of a run of this studio's (null: no credentials): what a queued run records,
   * and what a worker compares with the run's record before it makes a row.
   */
  account(runId: string): Promise<RunAccount | null>;
  /** The receiver of the active connection's callbacks (null: this host takes none by setting). */
  callbacks: ConnectionCallbacks | null;
}

export interface StudioServiceOverrides {
  /** The folder's runs (its records database), where batches are kept. */
  runs: RunStores;
  /** What a `studio worker` shares with the other workers in Redis (intents, the day's spending); none: this host alone. */
  shared?: SharedRecords;
  storage?: LedgerStorage;
  /** Where the service's requests take their turns (a worker's, in Redis); default: each connection's own, in memory. */
  limiter?: ClientLimiter;
  /** A worker's callback addresses (--callback-url); none: jobs are polled. */
  callbacks?: JobCallbacks;
  /** Callbacks by each connection's own setting (the desktop app, the web host); ignored with `callbacks`. */
  connectionCallbacks?: boolean;
  /** What makes this host's active storage that storage (no key); absent: runs record none. */
  runStorage?: () => Promise<RunStorage | null>;
}

/** What the shared services use of the host. */
export type StudioHost = Pick<
  HostBase,
  'createStore' | 'dataDir' | 'emit' | 'log' | 'notices' | 'platform' | 'sandbox' | 'vault'
>;
