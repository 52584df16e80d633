import { join } from 'node:path';
import { CatalogueService } from '../catalogue/catalogue-service';
import { ConnectionManager } from '../connections/connection-manager';
import type { HostBase } from '../host/types';
import { JobEngine } from './engine';
import { FileLedgerStorage, type LedgerStorage } from './ledger';

/** The connection manager, job engine and catalogue one host shares between its three domains. */
export interface StudioServices {
  connections: ConnectionManager;
  jobs: JobEngine;
  catalogue: CatalogueService;
}

export interface StudioServiceOverrides {
  storage?: LedgerStorage;
  fetch?: typeof globalThis.fetch;
}

// Keyed by host base (not a singleton): each host, and each test's memory host, gets its own services.
const perHost = new WeakMap<HostBase, StudioServices>();

export function studioServices(base: HostBase, overrides: StudioServiceOverrides = {}): StudioServices {
  const existing = perHost.get(base);
  if (existing) return existing;
  const clock = { now: () => Date.now() };
  const connections = new ConnectionManager({
    createStore: base.createStore,
    vault: base.vault,
    sandbox: () => base.sandbox(),
    clientOptions: { fetch: overrides.fetch, clock },
    onChange: (state) => base.emit('connections.changed', state),
  });
  const jobs = new JobEngine({
    storage: overrides.storage ?? new FileLedgerStorage(join(base.dataDir, 'jobs'), base.log),
    connections,
    clock,
    log: base.log,
    onChange: (job) => base.emit('jobs.changed', job),
    onRemove: (id) => base.emit('jobs.removed', { id }),
    // A desktop notification where the host has them; otherwise a notice the page shows as a toast.
    notify: (title, body, outcome) => {
      if (base.platform.notify) base.platform.notify(title, body);
      else base.notices.raise({ level: outcome === 'completed' ? 'success' : 'error', title, detail: body });
    },
    setProgress: base.platform.setProgress ? (fraction) => base.platform.setProgress?.(fraction) : undefined,
  });
  const catalogue = new CatalogueService({
    clock,
    activeClient: async () => {
      const { id } = await connections.active();
      return { connectionId: id, client: await connections.client(id) };
    },
  });
  const services = { connections, jobs, catalogue };
  perHost.set(base, services);
  return services;
}
