// A campaign's rows as the host answers the grid's pages of them: the host's own cut (campaignRowsPage)
// of the rows a test gives, so the grid is tested against the same filter and counts it gets.
import { flushPromises } from '@vue/test-utils';
import { resizeObserverManager } from 'vueuc';
import {
  campaignRowsPage,
  campaignStatus,
  type CampaignRowsPage,
  type CampaignStatus,
} from '@common/bridge/campaign-pages';
import type { CopyState } from '@common/bridge';
import type { CampaignView } from '@common/bridge/campaigns';
import type { CampaignRowRecord } from '@common/campaign/record';

type Handler = (...args: unknown[]) => unknown;

/**
 * The fake host's `campaigns.rows` over these rows and charges, and the files its record of copies has
 * for done rows (by row; a row not named has none, "Not saved").
 */
export function rowsHandler(
  rows: CampaignRowRecord[],
  charged: Record<string, number> = {},
  files: Record<number, CopyState> = {},
): Record<string, Handler> {
  return rowsOf(() => ({ rows, charged }), files);
}

/** What the grid reads of the open campaign's status. */
export const gridCampaign = (id: string, state: CampaignStatus['state']) =>
  ({ id, state, variables: [], queue: null }) as unknown as CampaignStatus;

/**
 * A fake host holding a whole campaign view, as the test sets it: the page's status and its grid's pages
 * are cut from it by the host's own functions (campaigns.get stays for callers that read it whole).
 */
export function viewHandlers(view: () => CampaignView | null): Record<string, Handler> {
  const held = (): CampaignView => {
    const now = view();
    if (!now) throw new Error('No campaign');
    return now;
  };
  return {
    'campaigns.get': () => held(),
    'campaigns.status': () => campaignStatus(held()),
    ...rowsOf(held),
  };
}

function rowsOf(
  view: () => Pick<CampaignView, 'rows' | 'charged'>,
  files: Record<number, CopyState> = {},
): Record<string, Handler> {
  const isLost = (state: CopyState | undefined) => state === 'missing' || state === 'changed';
  return {
    'campaigns.rows': (_id: unknown, query: unknown): CampaignRowsPage => {
      const { rows } = view();
      const lostLinks = new Set(rows.flatMap((r) => (isLost(files[r.row]) && r.resultUrl ? [r.resultUrl] : [])));
      const page = campaignRowsPage(view(), query as Parameters<typeof campaignRowsPage>[1], lostLinks);
      const copies: CampaignRowsPage['copies'] = {};
      for (const r of page.rows) {
        if (r.state !== 'done' || !r.resultUrl) continue;
        const state = files[r.row] ?? 'none';
        const lost = isLost(state)
          ? { jobId: `j${r.row}`, downloadId: `d${r.row}`, folder: '/out', relativeName: r.fileName }
          : null;
        copies[String(r.row)] = { state, lost };
      }
      return { ...page, copies };
    },
  };
}

/** happy-dom lays nothing out: every element Naive UI observes is told it is 400 px tall, as a browser would. */
export async function laidOut(): Promise<void> {
  await flushPromises();
  const observed = (resizeObserverManager as unknown as { elHandlersMap: Map<Element, (entry: unknown) => void> })
    .elHandlersMap;
  for (const [target, handler] of observed) handler({ target, contentRect: { width: 800, height: 400 } });
  await flushPromises();
}
