import type { AppSettings, Notice } from '../../common/bridge';
import { CatalogueService } from '../catalogue/catalogue-service';
import { modelPriceEstimator } from '../catalogue/model-prices';
import { connectionPriceEstimator, sandboxPriceList } from '../catalogue/sandbox-prices';
import { ConnectionManager, type ClientLimiter, type ConnectionManagerDeps } from '../connections/connection-manager';
import { JobEngine } from '../jobs/engine';
import type { EngineConnections, JobEngineDeps } from '../jobs/engine-types';
import { ACCOUNT_WIDE, type AccountCreates } from '../jobs/account-creates';
import type { Budget } from '../jobs/budget';
import type { LedgerStorage } from '../jobs/ledger';
import { ledgerQueries, type JobQueries } from '../records/job-queries';
import { openLedger, type LedgerOptions } from '../records/open-ledger';
import { appSettingsSpec } from '../system/settings-store';
import { ConnectionCallbacks } from './connection-callbacks';
import type { HostBase, RecordStore } from './types';

/** What building the engine takes of a host: its records, vault, sandbox and log, and a way to tell the user something. */
export type EngineHost = Pick<HostBase, 'createStore' | 'dataDir' | 'log' | 'sandbox' | 'vault'> & {
  notices: { raise(notice: Notice): void };
};

export interface EngineOptions {
  /**
   * Which connection new work goes to and which client follows a job. Default: the folder's active
   * connection. The command line passes its own choice (--connection, --base-url, else the sandbox).
   */
  route?(connections: ConnectionManager): EngineConnections;
  /** Where every connection's requests take their turns; default: each connection's own, in memory. */
  limiter?: ClientLimiter;
  /** The ledger; default the jobs of the folder's records database. */
  storage?: LedgerStorage;
  /** How the default ledger opens: read-only beside the folder's owner; the import's progress. */
  ledger?: Pick<LedgerOptions, 'readOnly' | 'onImport'>;
  onConnectionsChange?: ConnectionManagerDeps['onChange'];
  /** How the engine reports to the host (events, notifications, the progress bar). */
  reports?: Pick<JobEngineDeps, 'onChange' | 'onRemove' | 'notify' | 'setProgress'>;
  /** Callback addresses for each create (a worker's --callback-url); none: jobs are polled. */
  callbacks?: JobEngineDeps['callbacks'];
  /** The creates on their way on each account, shared with the other workers (a worker's Redis); none: this process alone. */
  accountCreates?: AccountCreates;
  /** The budget runs' bounds are reserved on, shared with the other workers (a worker's Redis); none: this process's. */
  budget?: Budget;
  /** The budget a queued run's rows are held on (its queue's Redis, shared by every studio sending to it). */
  queueBudget?(queue: string, run: string): Promise<Budget>;
  /**
   * Callbacks by the connections' own setting (the desktop app, the web host): a receiver for the active
   * connection when it has one. Ignored when `callbacks` is given.
   */
  connectionCallbacks?: boolean;
}

export interface EngineServices {
  connections: ConnectionManager;
  /** Where the engine sends new work (the folder's active connection unless the host chose another). */
  target: EngineConnections;
  catalogue: CatalogueService;
  jobs: JobEngine;
  /** Pages, counts and sums of the ledger's jobs, computed by its database (the Library, `studio jobs list`). */
  queries: JobQueries;
  /** The folder's settings record, the one the Settings page writes. */
  settings: RecordStore<AppSettings>;
  /** The receiver of the active connection's callbacks, when the host takes them (`connectionCallbacks`). */
  callbacks: ConnectionCallbacks | null;
}

/**
 * The connections, catalogue and job engine of a data folder, built the one way every host builds them.
 * The money rules live here so no host can leave one out: the prices (on the built-in sandbox its own
 * list, the service's model list, else the kind's estimate), the balance read around each create, and
 * the user's spending policy read from the folder's settings at every create, so a limit saved in
 * Settings holds in the app, the web host and a command-line run alike.
 */
export function createEngineServices(host: EngineHost, options: EngineOptions = {}): EngineServices {
  const clock = { now: () => Date.now() };
  const connections = new ConnectionManager({
    createStore: host.createStore,
    vault: host.vault,
    sandbox: () => host.sandbox(),
    clientOptions: { limiter: options.limiter, clock },
    onChange: options.onConnectionsChange,
  });
  const target = options.route?.(connections) ?? connections;
  const callbacks =
    options.connectionCallbacks && !options.callbacks
      ? new ConnectionCallbacks({
          connections: {
            active: () => target.active(),
            callbacksOf: (id) => connections.callbacksOf(id),
            clientCredentials: (id) => connections.clientCredentials(id),
          },
          log: host.log,
        })
      : null;
  const catalogue = new CatalogueService({ clock, connections: target });
  const settings = host.createStore(appSettingsSpec);
  // An account's name where processes share records of it: a proof of its credentials, never a secret.
  const accountName = async (id: string) => (await target.client(id)).account(ACCOUNT_WIDE)?.proof ?? null;
  const storage =
    options.storage ??
    openLedger(host.dataDir, { ...options.ledger, log: host.log, notify: (notice) => host.notices.raise(notice) });
  const jobs = new JobEngine({
    ...options.reports,
    callbacks: options.callbacks ?? callbacks?.jobs,
    storage,
    connections: target,
    clock,
    log: host.log,
    warn: (title, detail) => host.notices.raise({ level: 'warning', title, detail }),
    estimator: connectionPriceEstimator(
      modelPriceEstimator((types) => catalogue.models(types)),
      sandboxPriceList(() => host.sandbox()),
    ),
    spending: () => settings.get().spending,
    // Read around a create only when it goes alone on its connection (a price nobody can say ahead, or one
    // made by hand while nothing else is being created), and by runs at their start, end and every few minutes.
    balance: async (id) => (await (await target.client(id)).call('quotaInfo', {})).credit,
    // Shared by account, not connection: each worker's folder has its own id for the same credentials.
    budget: options.budget,
    queueBudget: options.queueBudget,
    accountName,
    account: options.accountCreates && { creates: options.accountCreates, name: accountName },
  });
  const queries = ledgerQueries(storage, () => jobs.records(), clock.now);
  // Only a ledger not wholly in a database is answered from a copy of the engine's records: renewed as they change.
  jobs.subscribeRecords(() => queries.invalidate());
  return { connections, target, catalogue, jobs, queries, settings, callbacks };
}
