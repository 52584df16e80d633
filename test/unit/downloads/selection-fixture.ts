// A studio's downloads over a selection of many jobs, for selection-queue.test.ts and the child it kills:
// the folder's records database, jobs made up from their ids (nothing holds them), and a fetch that never
// answers (a transfer stays under way until it is stopped), so what is queued stays queued.
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import type { SelectionPages } from '../../../electron/services/downloads/selection-queue';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { recordsIn } from './queue-record';

export const NOW = Date.parse('2026-11-22T10:00:00Z');
const silent = { debug() {}, info() {}, warn() {}, error() {} };

export const jobId = (n: number): string => `job-${String(n).padStart(6, '0')}`;

export function madeUpJob(id: string): JobRecord {
  return {
    id,
    kind: 'avatar-video',
    phase: 'completed',
    remoteId: `r-${id}`,
    connectionId: 'c1',
    connectionName: 'Account',
    projectId: null,
    summary: '',
    requestHash: '',
    request: { text: `Clip ${id}` },
    createdAt: NOW - 3_600_000,
    updatedAt: NOW,
    finishedAt: NOW - 3_600_000,
    expiresAt: NOW + 100 * 3_600_000,
    deadlineAt: NOW,
    remoteStatus: 3,
    resultUrl: `http://127.0.0.1:9/${id}.mp4`,
    costEstimate: null,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 1,
    purpose: { type: 'plain' },
    reactedAt: null,
  };
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
