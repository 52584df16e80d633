import type { jobsCalls } from '../../common/bridge/jobs';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../host/studio-types';

/** The jobs.* calls. The engine and reactor are started by startStudioServices, once every reaction is registered. */
export function createJobsDomain({
  jobs,
  reactor,
  batches,
}: Pick<StudioServices, 'jobs' | 'reactor' | 'batches'>): DomainModule<typeof jobsCalls> {
  return {
    handlers: {
      'jobs.submit': async (submission) => jobs.submit(submission),
      'jobs.quote': async (items) => jobs.quote(items),
      'jobs.list': async () => jobs.list(),
      'jobs.get': async (id) => jobs.get(id),
      'jobs.refresh': async (id) => jobs.refresh(id),
      'jobs.remove': async (id) => jobs.remove(id),
    },
    async dispose() {
      // Creates already on their way finish first, so no batch row is left "outcome unknown" by a quit.
      await batches.stopSending();
      reactor.stop();
      jobs.stop();
      await jobs.flush();
    },
  };
}
