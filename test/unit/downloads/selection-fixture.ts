// A studio's downloads over a selection of many jobs, for selection-queue.test.ts and the child it kills:
// the folder's records database, jobs made up from their ids (nothing holds them), and a fetch that never
// answers (a transfer stays under way until it is stopped), so what is queued stays queued.
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import type { SelectionPages } from '../../../electron/services/downloads/selection-queue';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { completedJob, NOW, silent } from './job-fixture';
import { recordsIn } from './queue-record';

export { NOW };

export const jobId = (n: number): string => `job-${String(n).padStart(6, '0')}`;

/** A completed job made up from its id, its result at a port nothing listens on (never fetched here). */
export function madeUpJob(id: string): JobRecord {
  return completedJob(id, `http://127.0.0.1:9/${id}.mp4`, {
    connectionId: 'c1',
    connectionName: 'Account',
    summary: '',
  });
}

/** A fetch that answers nothing until it is aborted. */
const hanging: typeof fetch = (_url, init) =>
  new Promise((_resolve, reject) => {
    const stop = () => reject(new DOMException('aborted', 'AbortError'));
    if (init?.signal?.aborted) stop();
    init?.signal?.addEventListener('abort', stop);
  });

export function selectionService(dataDir: string, { resumeQueued = true } = {}): DownloadsService {
  return new DownloadsService({
    dataDir,
    records: recordsIn(dataDir),
    resumeQueued,
    createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
    log: silent,
    now: () => NOW,
    fetch: hanging,
    job: madeUpJob,
    projectName: async () => null,
  });
}

/** The jobs 0 to count - 1 as a selection's keyset pages, each page announced to `onPage` first. */
export function pagesOf(count: number, onPage: (page: number) => void = () => undefined): SelectionPages {
  return async (after, limit) => {
    const from = after === null ? 0 : Number(after);
    const to = Math.min(count, from + limit);
    onPage(Math.floor(from / limit));
    return {
      ids: Array.from({ length: to - from }, (_, i) => jobId(from + i)),
      next: to < count ? String(to) : null,
    };
  };
}
