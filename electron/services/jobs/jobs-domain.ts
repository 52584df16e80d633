import type { JobFilter } from '../../common/bridge/job-pages';
import type { jobsCalls } from '../../common/bridge/jobs';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../host/studio-types';

/** What the queries may read of the copies saved (records/job-filter-sql.ts), named through the host's types. */
type KnownCopies = NonNullable<Parameters<StudioServices['queries']['totals']>[1]>;

/** The jobs.* calls. The engine and reactor are started by startStudioServices, once every reaction is registered. */
export function createJobsDomain(
  { jobs, queries, reactor, batches }: Pick<StudioServices, 'jobs' | 'queries' | 'reactor' | 'batches'>,
  /** What "Saved" and "Not saved" may read (none: refused), once the copies' changes are written. */
  copies: { known?: () => Promise<KnownCopies> } = {},
): DomainModule<typeof jobsCalls> {
  // The engine's changes of this turn are committed first, so a page shows every change already announced.
  const settled = () => jobs.flush().catch(() => undefined);
  // Which jobs have a copy on disk is the downloads' record checked against the disk, not a column of
  // the jobs: asked only by a filter that needs it ("Not saved"), whose query reads the downloads' table.
  const known = async (filter: JobFilter | undefined): Promise<KnownCopies> =>
    filter?.saved !== undefined && copies.known ? copies.known() : {};
  return {
    handlers: {
      'jobs.submit': async (submission) => jobs.submit(submission),
      'jobs.quote': async (items) => jobs.quote(items),
      'jobs.list': async () => jobs.list(),
      'jobs.page': async (query) => (await settled(), queries.page(query, await known(query.filter))),
      'jobs.totals': async (filter, options) => (await settled(), queries.totals(filter, await known(filter), options)),
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
