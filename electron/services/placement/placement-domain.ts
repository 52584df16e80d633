import type { placementCalls } from '../../common/bridge/placement';
import { appSettingsSpec } from '../system/settings-store';
import { resolveMediaBinary } from '../system/binaries';
import type { DomainModule, HostBase } from '../host/types';
import type { StudioServices } from '../host/studio-types';
import type { StorageServices } from '../storage/storage-services';
import { PlacementChecker, balanceThrough } from './placement-check';

/** Check placement from the page: the plan (what is sent, its cost, the balance), then the run. */
export function createPlacementDomain(
  base: Pick<HostBase, 'createStore' | 'emit'>,
  studio: Pick<StudioServices, 'connections' | 'target' | 'jobs' | 'catalogue'>,
  storage: StorageServices,
): DomainModule<typeof placementCalls> {
  const settings = base.createStore(appSettingsSpec);
  let running: AbortController | null = null;
  const checker = new PlacementChecker({
    connections: studio.target,
    engine: studio.jobs,
    catalogue: studio.catalogue,
    upload: async (paths, signal) =>
      (await storage.uploader.uploadAll(paths, storage.storages.activeId(), { signal })).map((r) => r.url),
    ffmpegPath: async () => (await resolveMediaBinary('ffmpeg', { settings: settings.get() })).path,
    balance: () => balanceThrough(studio.target),
    // A connection that is not saved (a command line's --base-url) keeps no convention.
    record: async (id, convention, at) => {
      if (!(await studio.connections.state()).connections.some((c) => c.id === id)) return;
      await studio.connections.setPlacement(id, convention, at);
    },
  });
  return {
    handlers: {
      'placement.plan': async () => checker.plan(),
      'placement.check': async (confirmation) => {
        if (running) throw new Error('A placement check is already running.');
        running = new AbortController();
        try {
          return await checker.run({
            confirmation,
            signal: running.signal,
            onStep: (step) => base.emit('placement.step', { step }),
          });
        } finally {
          running = null;
        }
      },
    },
    async dispose() {
      running?.abort();
    },
  };
}
