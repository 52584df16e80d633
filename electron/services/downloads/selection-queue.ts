import type { DownloadEntry, DownloadView } from '../../common/bridge/downloads';
import type { DownloadsService, StartResult } from './downloads-service';
import type { EnqueueRequest } from './queue-names';
import { yieldTurn } from './queue-window';

/**
 * Jobs read, named and recorded at a time: one page of ids and one transaction of new downloads (a
 * thousand rows' inserts held the thread 150-200 ms on a loaded 2-core machine).
 */
export const JOBS_A_STEP = 500;
/** Jobs looked at between two turns given back: each is read from the ledger and its copies looked up. */
const JOBS_A_TURN = 50;

/** A selection's ids a page at a time (JobQueries.idPage, bound to the selection by the host). */
export type SelectionPages = (after: string | null, limit: number) => Promise<{ ids: string[]; next: string | null }>;

export interface SelectionRequest {
  folder: string;
  template?: string;
  origin: 'library' | 'cli' | 'tools';
}

/** What the first step of a selection's queueing answers; `more`: the rest is being queued. */
export type SelectionStart = StartResult & { more: boolean };

/**
 * Queues the downloads of a selection of any size: its ids read a page at a time after a cursor, each
 * page's jobs named by the template and recorded in one transaction into the queue's backlog (the
 * manager holds none of them until it takes them in), the thread given back between pages. The call
 * answers after the first page, so the first files start while the rest is read; the end is told as a
 * notice. "Cancel all" stops the walk; "Pause all" records the rest paused. Nothing holds the whole
 * selection: not its ids, not its entries. A kill half way leaves the pages committed, each job once,
 * and asking again finds them (same folder, same name) instead of queueing them a second time.
 */
export async function queueSelection(
  service: DownloadsService,
  pages: SelectionPages,
  request: SelectionRequest,
  told: (queued: number, skipped: number, stopped: boolean) => void = () => undefined,
): Promise<SelectionStart> {
  const { folder, template, batchId } = await service.prepareStart(request);
  const mark = service.manager.window.mark();
  const totals = { queued: 0, skipped: 0 };
  const step = async (after: string | null): Promise<{ result: StartResult; next: string | null } | null> => {
    const page = await pages(after, JOBS_A_STEP);
    const state = () => service.manager.window.since(mark);
    if (state() === 'cancelled') return null;
    // The first page is flushed before the call answers; the rest are not waited on the disk for.
    const to = { folder, template, batchId, origin: request.origin, flushed: after === null };
    const result = await queuePage(service, page.ids, to, state);
    if (!result) return null;
    totals.queued += result.queued.length;
    totals.skipped += result.skipped.length;
    return { result, next: page.next };
  };
  const first = await step(null);
  if (!first) return { queued: [], skipped: [], already: [], copies: 0, more: false };
  if (first.next !== null)
    void (async () => {
      let next: string | null = first.next;
      let stopped = false;
      while (next !== null) {
        await yieldTurn();
        const done = await step(next).catch((error: unknown) => {
          service.log.warn('a selection was not queued to its end', { error: String(error) });
          return null;
        });
        if (!done) {
          stopped = true;
          break;
        }
        next = done.next;
      }
      told(totals.queued, totals.skipped, stopped);
    })();
  return { ...first.result, more: first.next !== null };
}

/**
 * One page: each job's earlier download into this folder under this name is taken up (resumed, fetched
 * again, or answered as saved), whether held or waiting in the backlog; the others are new, recorded
 * in one transaction.
 */
async function queuePage(
  service: DownloadsService,
  jobIds: readonly string[],
  to: { folder: string; template: string; batchId: string; origin: SelectionRequest['origin']; flushed: boolean },
  /** Read as the page is recorded: a pause or cancel while it was named counts. */
  state: () => 'cancelled' | 'paused' | null,
): Promise<StartResult | null> {
  const { manager } = service;
  const result: StartResult = { queued: [], skipped: [], already: [], copies: 0 };
  const files = [];
  for (let from = 0; from < jobIds.length; from += JOBS_A_TURN) {
    if (from > 0) await yieldTurn();
    files.push(...(await service.files(jobIds.slice(from, from + JOBS_A_TURN), to.template)));
  }
  const waiting = new Map<string, DownloadEntry[]>();
  for (const entry of manager.window.ofJobs(files.flatMap((f) => (f.ok ? [f.jobId] : []))))
    waiting.set(entry.jobId, [...(waiting.get(entry.jobId) ?? []), entry]);
  const recorded = service.manager.lookup.byJob(files.flatMap((f) => (f.ok ? [f.jobId] : [])));
  const requests: EnqueueRequest[] = [];
  for (const [index, file] of files.entries()) {
    if (index > 0 && index % JOBS_A_TURN === 0) await yieldTurn();
    if (!file.ok) {
      result.skipped.push({ jobId: file.jobId, reason: file.reason });
      continue;
    }
    const earlier = await service.takeUpEarlier(file.jobId, to.folder, file.relativeName, recorded.get(file.jobId));
    const inBacklog = (waiting.get(file.jobId) ?? []).find(
      (e) => e.folder === to.folder && (e.requestedName ?? e.relativeName) === file.relativeName,
    );
    // One waiting in the backlog stays there (asked again after a kill, a million of them would all be
    // taken in): answered as it is, or queued again in place when a "Pause all" left it paused.
    const waited = inBacklog && (state() ? inBacklog : manager.window.requeue(inBacklog, service.now()));
    const existing: DownloadView | null =
      earlier ?? (waited ? { ...waited, bytesPerSecond: null, secondsLeft: null } : null);
    if (existing) {
      if (existing.state === 'saved') result.already.push(existing.id);
      result.queued.push(existing);
      continue;
    }
    const { jobId, url, relativeName } = file;
    requests.push({ jobId, url, folder: to.folder, relativeName, origin: to.origin, batchId: to.batchId });
  }
  const now = state();
  if (now === 'cancelled') return null;
  result.queued.push(...manager.enqueueBacklog(requests, { paused: now === 'paused', flushed: to.flushed }));
  return result;
}
