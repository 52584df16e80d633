// The Campaigns page at the account's end: the open campaign's pause is a banner with its reason, what
// is left and Resume; its tag says why it paused; "Retry all failed" asks one price for every failed row
// (saying how many of them the balance covers) and sends them on that one answer.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { PriceQuote } from '@common/bridge';
import type { CampaignView } from '@common/bridge/campaigns';
import type { CampaignRowRecord } from '@common/campaign/record';
import { useStudioApi } from '@/bridge';
import { mountCampaigns } from './mount-campaigns';
import { fakeApi } from '../library/fake-api';
import { viewHandlers } from './grid-host';
import { OUTCOME_UNKNOWN } from '@common/campaign/row-review';

afterEach(() => useStudioApi(undefined));

const row = (n: number, state: CampaignRowRecord['state']) =>
  ({
    row: n,
    state,
    problems: state === 'failed' ? ['the video failed'] : [],
    values: {},
    fileName: `${n + 1}.mp4`,
    take: 0,
    voiceovers: {},
    resultUrl: null,
    expiresAt: null,
    savedAt: null,
  }) as CampaignRowRecord;

function campaign(paused: boolean, reason: 'balance' | 'cap' = 'balance'): CampaignView {
  const rows = [row(0, 'done'), row(1, 'failed'), row(2, 'failed'), row(3, 'pending'), row(4, 'pending')];
  return {
    id: 'c1',
    label: 'prospects.csv',
    createdAt: 1,
    state: paused ? 'paused' : 'running',
    outDir: '/out',
    counts: { done: 1, failed: 2, pending: 2 },
    total: 5,
    pause: paused ? { reason, at: 2, message: 'out of quota', rowsLeft: 2, creditsLeft: 22 } : null,
    maxCredits: reason === 'cap' ? 11 : null,
    variables: [],
    rows,
    charged: {},
    balanceNote: null,
  };
}

const QUOTE: PriceQuote = {
  items: [
    { action: 'tts', count: 2, price: { published: true, credits: 1, basis: 'test' } },
    { action: 'avatar-video', count: 2, price: { published: true, credits: 10, basis: 'test' } },
  ],
  connectionId: 'sandbox',
  connectionName: 'Sandbox',
  balance: 11,
  balanceAt: 0,
  dailyLimit: null,
  spentToday: 0,
  skipQuestionUnder: null,
};

function mountPage(reason: 'balance' | 'cap' = 'balance', first = campaign(true, reason)) {
  let current = first;
  const fake = fakeApi({
    'campaigns.list': () => [{ ...current, rows: undefined }],
    ...viewHandlers(() => current),
    'campaigns.quoteRow': () => QUOTE,
    'campaigns.quoteFailed': () => QUOTE,
    'jobs.quote': () => QUOTE,
    'campaigns.resume': () => (current = campaign(false)),
    'campaigns.retryFailed': () => current,
    'campaigns.setCap': () => current,
    'campaigns.rowStill': () => ({ dataUrl: null }),
    'projects.listRecent': () => [],
    'downloads.list': () => [],
    'downloads.totals': () => ({}),
    'downloads.preferences': () => null,
    'connections.balance': () => ({ credit: 11 }),
    'connections.list': () => ({ connections: [], activeId: 'sandbox' }),
    'connections.topUpSandbox': () => ({ connectionId: 'sandbox', credit: 1_011 }),
  });
  useStudioApi(fake.api);
  const wrapper = mountCampaigns();
  return { wrapper, fake };
}

describe("the Campaigns page at the account's end", () => {
  it('shows the pause with its reason, what is left and Resume, and resumes on it', async () => {
    const { wrapper, fake } = mountPage();
    await flushPromises();
    const banner = wrapper.get('[data-testid="campaign-pause"]');
    expect(banner.text()).toContain('Paused: out of credits');
    // Rows left and their cost are counted now: 2 waiting at the quoted row price (22 each).
    expect(banner.text()).toContain(
      'Paused: the account ran out of credits. 2 rows left (about 44 credits); nothing failed for it. Top up the account, then resume.',
    );
    expect(wrapper.get('[data-testid="campaign-list"]').text()).toContain('Paused: out of credits');
    // On the sandbox the banner tops it up.
    await wrapper.get('[data-testid="sandbox-top-up"]').trigger('click');
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'connections.topUpSandbox').map((c) => c.args)).toEqual([[1_000]]);
    await wrapper.get('[data-testid="campaign-pause-resume"]').trigger('click');
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'campaigns.resume').map((c) => c.args)).toEqual([['c1']]);
    expect(wrapper.find('[data-testid="campaign-pause"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('retries every failed row on one answer to one price, saying how many rows the balance covers', async () => {
    const { wrapper, fake } = mountPage();
    await flushPromises();
    await wrapper.get('[data-testid="campaign-retry-failed"]').trigger('click');
    await flushPromises();
    expect(document.body.textContent).toContain('Your balance of 11 credits covers about 1 of these 2 rows');
    (document.querySelector('[data-testid="price-confirm-send"]') as HTMLElement).click();
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'campaigns.retryFailed').map((c) => c.args)).toEqual([
      ['c1', { by: 'user', credits: 22 }],
    ]);
    wrapper.unmount();
  });

  it('counts in "Retry all failed" only the rows the retry sends, not one waiting for review', async () => {
    const view = campaign(true);
    // Row 3's worker stopped mid-create: a retry of the failed leaves it to its user (retriedWithTheFailed).
    view.rows = view.rows.map((r) => (r.row === 2 ? { ...r, problems: [OUTCOME_UNKNOWN] } : r));
    const { wrapper } = mountPage('balance', view);
    await flushPromises();
    expect(wrapper.get('[data-testid="campaign-retry-failed"]').text()).toBe('Retry all failed (1)…');
    await wrapper.get('[data-testid="campaign-retry-failed"]').trigger('click');
    await flushPromises();
    expect(document.body.textContent).toContain('Make the 1 failed row again?');
    wrapper.unmount();
  });

  it('at its cap, raises it and resumes', async () => {
    const { wrapper, fake } = mountPage('cap');
    await flushPromises();
    expect(wrapper.get('[data-testid="campaign-pause"]').text()).toContain('it reached the credits you allowed it');
    await wrapper.get('input[aria-label="New cap in credits"]').setValue('30');
    await wrapper.get('input[aria-label="New cap in credits"]').trigger('blur');
    await wrapper.get('[data-testid="campaign-raise-cap"]').trigger('click');
    await flushPromises();
    const asked = fake.calls.filter((c) => c.channel === 'campaigns.setCap' || c.channel === 'campaigns.resume');
    expect(asked.map((c) => [c.channel, ...c.args])).toEqual([
      ['campaigns.setCap', 'c1', 30],
      ['campaigns.resume', 'c1'],
    ]);
    wrapper.unmount();
  });
});
