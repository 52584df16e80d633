import { join } from 'node:path';
import type { LibraryExport } from '../../common/bridge/downloads';
import type { JobSelection } from '../../common/bridge/job-pages';
import type { LibraryQuestions } from '../downloads/downloads-domain';
import { ExportFiles } from '../downloads/library-export';
import type { JobQueries } from '../records/job-queries';
import type { KnownCopies } from '../records/job-filter-sql';

export interface LibraryQuestionDeps {
  dataDir: string;
  queries: Pick<JobQueries, 'idPage' | 'page' | 'totals'>;
  /** Writes the jobs the engine holds changed, so the records answer what the page saw. */
  flush(): Promise<void>;
  /** Which copies are saved: asked only of a filter that needs it ("Saved", "Not saved"). */
  knownCopies(): Promise<KnownCopies>;
  projectName(id: string): Promise<string | null>;
}

/**
 * A selection made by a filter ("all these but those"), or the jobs shown for an export, walked on the
 * host by keyset pages; which copies are saved is read once, at the walk's start. No list of the jobs
 * is held or crosses the bridge, however many the filter leaves.
 */
export function libraryQuestions(deps: LibraryQuestionDeps): LibraryQuestions {
  const known = async (filter: JobSelection['filter']) => {
    await deps.flush().catch(() => undefined);
    return filter.saved === undefined ? {} : deps.knownCopies();
  };
  return {
    selectionPages: async (selection) => {
      const copies = await known(selection.filter);
      return async (after, limit) => deps.queries.idPage(selection, after, limit, copies);
    },
    shown: async (query: LibraryExport) => {
      const copies = await known(query.filter);
      return {
        count: deps.queries.totals(query.filter, copies).count,
        page: async (after, limit) => deps.queries.page({ ...query, limit, ...(after ? { after } : {}) }, copies),
      };
    },
    exports: new ExportFiles(join(deps.dataDir, 'exports')),
    projectName: (id) => deps.projectName(id),
  };
}
