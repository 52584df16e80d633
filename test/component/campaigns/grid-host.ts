// A campaign's rows as the host answers the grid's pages of them: the host's own cut (campaignRowsPage)
// of the rows a test gives, so the grid is tested against the same filter and counts it gets.
import { flushPromises } from '@vue/test-utils';
import { resizeObserverManager } from 'vueuc';
import { campaignRowsPage, campaignStatus, type CampaignStatus } from '@common/bridge/campaign-pages';
import type { CampaignView } from '@common/bridge/campaigns';
import type { CampaignRowRecord } from '@common/campaign/record';

type Handler = (...args: unknown[]) => unknown;

/** The fake host's `campaigns.rows` over these rows and charges. */
export function rowsHandler(rows: CampaignRowRecord[], charged: Record<string, number> = {}): Record<string, Handler> {
  return rowsOf(() => ({ rows, charged }));
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

function rowsOf(view: () => Pick<CampaignView, 'rows' | 'charged'>): Record<string, Handler> {
  return {
    'campaigns.rows': (_id: unknown, query: unknown) =>
      campaignRowsPage(view(), query as Parameters<typeof campaignRowsPage>[1]),
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
