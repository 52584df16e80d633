import { PREVIEW_JOBS } from '../../common/bridge/downloads';
import type { JobSelection } from '../../common/bridge/job-pages';
import { StudioError } from '../host/errors';
import type { DownloadsService } from './downloads-service';
import { yieldTurn } from './queue-window';
import { JOBS_A_STEP, type SelectionPages } from './selection-queue';

/** The jobs of a Library action: ids the page listed (ticked rows), or a filter's selection the host walks. */
export interface ChosenRequest {
  jobIds: string[];
  selection?: JobSelection;
  template: string;
}

/** A selection's keyset pages, bound to it by the host (absent: this host cannot walk a filter). */
export type PagesOf = ((selection: JobSelection) => Promise<SelectionPages>) | undefined;

const REASONS_KEPT = 20;

async function pagesFor(pagesOf: PagesOf, selection: JobSelection): Promise<SelectionPages> {
  if (!pagesOf) throw new StudioError('This host cannot choose jobs by a filter; tick them instead.', 'unsupported');
  return pagesOf(selection);
}

/**
 * The names a template gives: every listed job, or a selection's first PREVIEW_JOBS (a million names
 * would be read on every key typed and shown to nobody); `more` says the selection holds others.
 */
export async function previewChosen(
  service: DownloadsService,
  request: ChosenRequest,
  pagesOf: PagesOf,
): Promise<{ rows: Awaited<ReturnType<DownloadsService['preview']>>; more: boolean }> {
  if (!request.selection) return { rows: await service.preview(request.jobIds, request.template), more: false };
  const first = await (await pagesFor(pagesOf, request.selection))(null, PREVIEW_JOBS);
  return { rows: await service.preview(first.ids, request.template), more: first.next !== null };
}

/**
 * Renames the saved copies of the chosen jobs, a page of a selection at a time (the thread given back
 * between pages): what is held is one page of ids and the counts, however many jobs the filter leaves.
 */
export async function renameChosen(
  service: DownloadsService,
  request: ChosenRequest,
  pagesOf: PagesOf,
): Promise<{ moved: number; skipped: number; reasons: { jobId: string; reason: string }[] }> {
  const answer = { moved: 0, skipped: 0, reasons: [] as { jobId: string; reason: string }[] };
  const renamePage = async (ids: readonly string[]) => {
    const { moved, skipped } = await service.renameCopies(ids, request.template);
    answer.moved += moved.length;
    answer.skipped += skipped.length;
    answer.reasons.push(...skipped.slice(0, REASONS_KEPT - answer.reasons.length));
  };
  if (!request.selection) {
    await renamePage(request.jobIds);
    return answer;
  }
  const pages = await pagesFor(pagesOf, request.selection);
  let after: string | null = null;
  do {
    const page = await pages(after, JOBS_A_STEP);
    await renamePage(page.ids);
    after = page.next;
    if (after !== null) await yieldTurn();
  } while (after !== null);
  return answer;
}
