// The campaign setup's "Make the rows: on this computer / on a queue": the queue's address is checked as
// it is typed (each message names what to change) and holds back the start until it is right; the
// password has a hidden field of its own, goes to the host with the start request alone, and is never
// shown back: the started campaign says only the address.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { NSelect } from 'naive-ui';
import type { ChosenSheet, PriceQuote } from '@common/bridge';
import type { CampaignCheckView, CampaignInput, CampaignView } from '@common/bridge/campaigns';
import { useStudioApi } from '@/bridge';
import { mountCampaigns } from './mount-campaigns';
import { fakeApi } from '../library/fake-api';
import { viewHandlers } from './grid-host';

afterEach(() => useStudioApi(undefined));

const PASSWORD = 'q#ueue pass';
const ADDRESS = 'redis://10.0.0.5:6380';

const CHECK: CampaignCheckView = {
  readAs: 'a comma-separated file in UTF-8',
  variables: [{ id: 'first name', name: 'First name' }],
  columns: { 'first name': 'First name' },
  unused: [],
  problems: [],
  existing: [],
  kept: 0,
  rows: [0, 1].map((row) => ({
    row,
    fileName: `${row + 1}.mp4`,
    values: { 'first name': `N${row}` },
    problems: [],
    held: [],
  })),
  speech: null,
};

const QUOTE: PriceQuote = {
  items: [{ action: 'avatar-video', count: 2, price: { published: true, credits: 10, basis: 'test' } }],
  connectionId: 'sandbox',
  connectionName: 'Sandbox',
  balance: 500,
  balanceAt: 0,
  dailyLimit: null,
  spentToday: 0,
  skipQuestionUnder: null,
};

function startedView(input: CampaignInput): CampaignView {
  return {
    id: 'c1',
    label: input.label,
    createdAt: 1,
    state: 'running',
    outDir: input.outDir,
    counts: { pending: 2 },
    total: 2,
    pause: null,
    maxCredits: null,
    // What the host answers: the address without its password.
    queue: input.queue ? ADDRESS : null,
    variables: CHECK.variables,
    rows: [],
    charged: {},
    balanceNote: null,
  };
}

function mountPage() {
  let started: CampaignView | null = null;
  const fake = fakeApi({
    'projects.listRecent': () => [{ id: 'p1', name: 'Greeting' }],
    'downloads.preferences': () => ({ folder: '/home/me/Downloads', canChooseFolder: false }),
    'downloads.list': () => [],
    'downloads.totals': () => ({}),
    'campaigns.list': () => (started ? [{ ...started, rows: undefined }] : []),
    ...viewHandlers(() => started),
    'campaigns.check': () => CHECK,
    'campaigns.quote': () => QUOTE,
    'campaigns.quoteRow': () => QUOTE,
    'jobs.quote': () => QUOTE,
    'campaigns.create': (input) => (started = startedView(input as CampaignInput)),
    'campaigns.queueStatus': () => ({
      queue: ADDRESS,
      checkedAt: 0,
      counts: { waiting: 2, active: 0, delayed: 0, failed: 0 },
      workers: [],
      problem: null,
    }),
    'campaigns.rowStill': () => ({ dataUrl: null }),
    'connections.balance': () => ({ credit: 500 }),
    'connections.list': () => ({ connections: [], activeId: 'sandbox' }),
  });
  const sheet: ChosenSheet = {
    url: 'local://sheet/prospects.csv',
    name: 'prospects.csv',
    readAs: CHECK.readAs,
  } as ChosenSheet;
  useStudioApi({ ...fake.api, importSheet: async () => ({ ok: true, value: sheet }) });
  const wrapper = mountCampaigns();
  return { wrapper, fake };
}

/** A template chosen and a spreadsheet picked, as the user does; the check has answered. */
async function readyToStart(wrapper: VueWrapper): Promise<void> {
  await flushPromises();
  wrapper.getComponent(NSelect).vm.$emit('update:value', 'p1');
  const input = wrapper.get('input[aria-label="Spreadsheet of the campaign"]');
  Object.defineProperty(input.element, 'files', {
    value: [new File(['First name\nA\nB'], 'prospects.csv')],
    configurable: true,
  });
  await input.trigger('change');
  await flushPromises();
}

async function type(wrapper: VueWrapper, label: string, text: string): Promise<void> {
  await wrapper.get(`input[aria-label="${label}"]`).setValue(text);
  await flushPromises();
}

const problem = (wrapper: VueWrapper) => wrapper.find('[data-testid="campaign-queue-problem"]');
const startDisabled = (wrapper: VueWrapper) =>
  wrapper.get('[data-testid="campaign-start"]').attributes('disabled') !== undefined;

describe('making the rows on a queue', () => {
  it('checks the address as it is typed, naming what is wrong, and holds back the start until it is right', async () => {
    const { wrapper } = mountPage();
    await readyToStart(wrapper);
    expect(startDisabled(wrapper)).toBe(false);
    // On this computer by default: no queue fields.
    expect(wrapper.find('input[aria-label="Queue address"]').exists()).toBe(false);
    await wrapper.get('[data-testid="campaign-rows-where"] input[value="queue"]').setValue(true);
    await flushPromises();
    // Chosen, and nothing typed yet: no error shown, but no start without an address.
    expect(problem(wrapper).exists()).toBe(false);
    expect(startDisabled(wrapper)).toBe(true);

    const said: Record<string, string> = {
      '10.0.0.5:6380': 'The address must start with redis:// (or rediss:// for a TLS connection).',
      'redis://:secret@10.0.0.5:6380':
        'Leave the password out of the address: type it in the password field, where it stays hidden.',
      'redis://10.0.0.5:63x0': 'The port must be a number from 1 to 65535, not "63x0".',
      'redis://10.0.0.5:6380/queue': 'After the port only a database number may follow (e.g. /0), not "/queue".',
    };
    for (const [typed, message] of Object.entries(said)) {
      await type(wrapper, 'Queue address', typed);
      expect(problem(wrapper).text()).toBe(message);
      expect(startDisabled(wrapper)).toBe(true);
    }
    await type(wrapper, 'Queue address', ADDRESS);
    expect(problem(wrapper).exists()).toBe(false);
    expect(startDisabled(wrapper)).toBe(false);
    // Back to this computer: whatever the queue fields hold does not matter.
    await type(wrapper, 'Queue address', 'nonsense');
    expect(startDisabled(wrapper)).toBe(true);
    await wrapper.get('[data-testid="campaign-rows-where"] input[value="here"]').setValue(true);
    await flushPromises();
    expect(startDisabled(wrapper)).toBe(false);
  });

  it('sends the password with the start request alone, hidden as it is typed, and never shows it back', async () => {
    const { wrapper, fake } = mountPage();
    await readyToStart(wrapper);
    await wrapper.get('[data-testid="campaign-rows-where"] input[value="queue"]').setValue(true);
    await flushPromises();
    await type(wrapper, 'Queue address', ADDRESS);
    await type(wrapper, 'Queue password', PASSWORD);
    expect(wrapper.get('input[aria-label="Queue password"]').attributes('type')).toBe('password');

    await wrapper.get('[data-testid="campaign-start"]').trigger('click');
    await flushPromises();
    (document.querySelector('[data-testid="price-confirm-send"]') as HTMLElement).click();
    await flushPromises();

    const creates = fake.calls.filter((c) => c.channel === 'campaigns.create');
    expect(creates.map((c) => (c.args[0] as CampaignInput).queue)).toEqual([
      `redis://:${encodeURIComponent(PASSWORD)}@10.0.0.5:6380`,
    ]);
    // The check and the price never carry it.
    const others = fake.calls.filter((c) => c.channel !== 'campaigns.create');
    expect(others.some((c) => c.channel === 'campaigns.quote')).toBe(true);
    expect(JSON.stringify(others.map((c) => c.args))).not.toContain(encodeURIComponent(PASSWORD));
    expect(JSON.stringify(others.map((c) => c.args))).not.toContain(PASSWORD);

    // The started campaign says where its rows are made, by address alone; the page forgot the password.
    await flushPromises();
    expect((wrapper.get('input[aria-label="Queue password"]').element as HTMLInputElement).value).toBe('');
    expect(wrapper.get('[data-testid="campaign-queue-where"]').text()).toBe(ADDRESS);
    for (const shown of [document.body.innerHTML, document.body.textContent ?? '']) {
      expect(shown).not.toContain(PASSWORD);
      expect(shown).not.toContain(encodeURIComponent(PASSWORD));
    }
  });
});
