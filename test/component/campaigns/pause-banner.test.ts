// The Campaigns page's pause banners say what a pause does now that Pause stops spending at once: no
// paid request leaves after the click, the steps the service still holds finish and are saved (how many,
// and at what cost, from the run's jobs in the ledger), and the rows left are counted as rows end.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { PriceQuote } from '@common/bridge';
import type { CampaignView } from '@common/bridge/campaigns';
import type { CampaignRowRecord } from '@common/campaign/record';
import type { RunPause } from '@common/jobs/run-pause';
import { useStudioApi } from '@/bridge';
import { mountCampaigns } from './mount-campaigns';
import { fakeApi } from '../library/fake-api';
import { viewHandlers } from './grid-host';

/** A hang guard only: a change of a campaign is read within a second of the page's last read. */
const GUARD_MS = 15_000;

afterEach(() => useStudioApi(undefined));

const row = (n: number, state: CampaignRowRecord['state']) =>
  ({
    row: n,
    state,
    problems: [],
    values: {},
    fileName: `${n + 1}.mp4`,
    take: 0,
    voiceovers: {},
    resultUrl: null,
    expiresAt: null,
    savedAt: state === 'done' ? 1_000 : null,
  }) as CampaignRowRecord;

/** A paused campaign whose first `done` rows are made (11 each), two at their video (voiceover of 1 paid), the rest waiting. */
function paused(done: number, pause: RunPause | null, atService: CampaignView['atService']): CampaignView {
  const rows = Array.from({ length: 8 }, (_, i) => row(i, i < done ? 'done' : i < done + 2 ? 'video' : 'pending'));
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
  const charged = Object.fromEntries(
    rows.flatMap((r) => (r.state === 'done' ? [[String(r.row), 11]] : r.state === 'video' ? [[String(r.row), 1]] : [])),
  );
  return {
    id: 'c1',
    label: 'prospects.csv',
    createdAt: 1,
    state: 'paused',
    outDir: '/out',
    counts,
    total: rows.length,
    pause,
    maxCredits: null,
    variables: [],
    rows,
    charged,
    balanceNote: null,
    atService,
  };
}

const QUOTE: PriceQuote = {
  items: [
    { action: 'tts', count: 1, price: { published: true, credits: 1, basis: 'test' } },
    { action: 'avatar-video', count: 1, price: { published: true, credits: 10, basis: 'test' } },
  ],
  connectionId: 'sandbox',
  connectionName: 'Sandbox',
  balance: 11,
  balanceAt: 0,
  dailyLimit: null,
  spentToday: 0,
  skipQuestionUnder: null,
};

function mountPage(first: CampaignView) {
  let current = first;
  const fake = fakeApi({
    'campaigns.list': () => [{ ...current, rows: undefined }],
    ...viewHandlers(() => current),
    'campaigns.quoteRow': () => QUOTE,
    'campaigns.rowStill': () => ({ dataUrl: null }),
    'projects.listRecent': () => [],
    'downloads.list': () => [],
    'downloads.totals': () => ({}),
    'downloads.preferences': () => null,
    'connections.balance': () => ({ credit: 11 }),
    'connections.list': () => ({ connections: [], activeId: 'sandbox' }),
  });
  useStudioApi(fake.api);
  const wrapper = mountCampaigns();
  /** The host reports a change: the page reads the campaign again, as on a row's end. */
  const change = async (next: CampaignView) => {
    current = next;
    fake.push('campaigns.changed', { ...next, rows: undefined });
    await flushPromises();
  };
  return { wrapper, change };
}

describe('the pause banners of the Campaigns page', () => {
  it("says a user's pause sends nothing more, names the steps at the service and their cost, and counts rows left as they end", async () => {
    const { wrapper, change } = mountPage(paused(2, null, { steps: 2, credits: 20, unknown: 0 }));
    await flushPromises();
    const banner = () => wrapper.get('[data-testid="campaign-user-pause"]').text();
    expect(banner()).toBe(
      'Paused: no paid request is sent after the pause. 2 steps still at the service finish and are saved (about 20 credits). 6 rows left (about 64 credits to finish them, those steps included); Resume goes on from there.',
    );
    expect(banner()).not.toContain('rows under way finish');
    // The two videos at the service finished and were saved: fewer rows left, nothing at the service.
    await change(paused(4, null, { steps: 0, credits: 0, unknown: 0 }));
    // Read again at the page's pace (status-reads.ts): within a second of the last read here.
    await vi.waitFor(
      () =>
        expect(banner()).toBe(
          'Paused: no paid request is sent after the pause. Nothing is at the service now. 4 rows left (about 42 credits); Resume goes on from there.',
        ),
      { timeout: GUARD_MS },
    );
    wrapper.unmount();
  });

  it("counts an account pause's rows left now, not when it paused", async () => {
    const pause: RunPause = { reason: 'balance', at: 2, message: 'out of quota', rowsLeft: 6, creditsLeft: 66 };
    const { wrapper, change } = mountPage(paused(2, pause, { steps: 2, credits: 20, unknown: 0 }));
    await flushPromises();
    const banner = () => wrapper.get('[data-testid="campaign-pause"]').text();
    expect(banner()).toContain('6 rows left (about 64 credits to finish them, those steps included)');
    await change(paused(3, pause, { steps: 1, credits: 10, unknown: 0 }));
    await vi.waitFor(
      () =>
        expect(banner()).toContain(
          'Paused: the account ran out of credits. 1 step still at the service finishes and is saved (about 10 credits). 5 rows left (about 53 credits to finish them, those steps included); nothing failed for it.',
        ),
      { timeout: GUARD_MS },
    );
    wrapper.unmount();
  });
});
