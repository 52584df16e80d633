import type { jobsCalls } from '../../common/bridge/jobs';
import type { DomainModule, HostBase } from '../host/types';
import { studioServices } from './studio-services';

export function createJobsDomain(base: HostBase): DomainModule<typeof jobsCalls> {
  const { jobs } = studioServices(base);
  jobs.start();
  return {
    handlers: {
      'jobs.submit': async (submission) => jobs.submit(submission),
      'jobs.estimate': async ({ kind, body }) => jobs.estimate(kind, body),
      'jobs.list': async () => jobs.list(),
      'jobs.get': async (id) => jobs.get(id),
      'jobs.refresh': async (id) => jobs.refresh(id),
      'jobs.remove': async (id) => jobs.remove(id),
    },
    async dispose() {
      jobs.stop();
      await jobs.flush();
    },
  };
}
