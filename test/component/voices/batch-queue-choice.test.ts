// The batch setup's "Make the lines: on this computer / on a queue" (the Campaigns page's component): the
// address is checked as it is typed and holds back Send until it is right; the password has a hidden
// field of its own, goes to the host with the start request alone, and is never shown back: the started
// batch's card says only the address.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import type { BatchInput, PriceQuote } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { batchView, mountBatchPanel, summaryOf } from './mount-batch-panel';

afterEach(() => useStudioApi(undefined));

const PASSWORD = 'b@tch pass:1';
const ADDRESS = 'redis://10.0.0.5:6380';

const QUOTE: PriceQuote = {
  items: [{ action: 'tts', count: 2, price: { published: true, credits: 2, basis: 'test' } }],
  connectionId: 'sandbox',
  connectionName: 'Sandbox',
  balance: 500,
  balanceAt: 0,
  dailyLimit: null,
  spentToday: 0,
  skipQuestionUnder: null,
};

function mountPage() {
  let started: ReturnType<typeof batchView> | null = null;
  const rows = [0, 1].map((row) => ({
    row,
    line: row + 1,
    text: `Line ${row + 1}.`,
    voiceId: 'v1',
    rate: '50%',
    name: null,
  }));
  const { wrapper, fake } = mountBatchPanel({
    'batches.list': () => (started ? [summaryOf(started)] : []),
    'batches.check': () => ({ rows, problems: [], columns: { cells: ['Line 1.'], mapping: null, unused: [] } }),
    'jobs.quote': () => QUOTE,
    // What the host answers: the address without its password.
    'batches.create': (input) =>
      (started = batchView('b1', { queued: 2 }, (input as BatchInput).queue ? ADDRESS : null)),
    'batches.get': () => started,
    'batches.queueStatus': () => ({
      queue: ADDRESS,
      checkedAt: 0,
      counts: { waiting: 2, active: 0, delayed: 0, failed: 0 },
      workers: [],
      problem: null,
    }),
  });
  return { wrapper, fake };
}

/** Two lines pasted and checked, as the user does. */
async function checked(wrapper: VueWrapper): Promise<void> {
  await flushPromises();
  await wrapper.get('textarea[aria-label="Batch lines"]').setValue('Line 1.\nLine 2.');
  const check = wrapper.findAll('button').find((b) => b.text() === 'Check rows');
  await check?.trigger('click');
  await flushPromises();
}

async function type(wrapper: VueWrapper, label: string, text: string): Promise<void> {
  await wrapper.get(`input[aria-label="${label}"]`).setValue(text);
  await flushPromises();
}

async function choose(wrapper: VueWrapper, where: 'here' | 'queue'): Promise<void> {
  await wrapper.get(`[data-testid="batch-rows-where"] input[value="${where}"]`).setValue(true);
  await flushPromises();
}

const problem = (wrapper: VueWrapper) => wrapper.find('[data-testid="batch-queue-problem"]');
const sendDisabled = (wrapper: VueWrapper) =>
  wrapper.get('[data-testid="batch-send"]').attributes('disabled') !== undefined;

describe('making the lines of a batch on a queue', () => {
  it('checks the address as it is typed, naming what is wrong, and holds back Send until it is right', async () => {
    const { wrapper } = mountPage();
    await checked(wrapper);
    expect(wrapper.get('[data-testid="batch-rows-where"]').text()).toContain('Make the lines');
    expect(sendDisabled(wrapper)).toBe(false);
    // On this computer by default: no queue fields.
    expect(wrapper.find('input[aria-label="Queue address"]').exists()).toBe(false);
    await choose(wrapper, 'queue');
    // Chosen, nothing typed yet: no error shown, but nothing sent without an address.
    expect(problem(wrapper).exists()).toBe(false);
    expect(sendDisabled(wrapper)).toBe(true);

    const said: Record<string, string> = {
      'http://10.0.0.5:6380': 'The address must start with redis:// (or rediss:// for a TLS connection).',
      'redis://:secret@10.0.0.5:6380':
        'Leave the password out of the address: type it in the password field, where it stays hidden.',
      'redis://10.0.0.5:': 'The port must be a number from 1 to 65535 after the colon.',
    };
    for (const [typed, message] of Object.entries(said)) {
      await type(wrapper, 'Queue address', typed);
      expect(problem(wrapper).text()).toBe(message);
      expect(sendDisabled(wrapper)).toBe(true);
    }
    await type(wrapper, 'Queue address', ADDRESS);
    expect(problem(wrapper).exists()).toBe(false);
    expect(sendDisabled(wrapper)).toBe(false);
    // Back to this computer: whatever the queue fields hold does not matter.
    await type(wrapper, 'Queue address', 'nonsense');
    expect(sendDisabled(wrapper)).toBe(true);
    await choose(wrapper, 'here');
    expect(sendDisabled(wrapper)).toBe(false);
  });

  it('sends the password with the start request alone, hidden as it is typed, and never shows it back', async () => {
    const { wrapper, fake } = mountPage();
    await checked(wrapper);
    await choose(wrapper, 'queue');
    await type(wrapper, 'Queue address', ADDRESS);
    await type(wrapper, 'Queue password', PASSWORD);
    expect(wrapper.get('input[aria-label="Queue password"]').attributes('type')).toBe('password');

    await wrapper.get('[data-testid="batch-send"]').trigger('click');
    await flushPromises();
    (document.querySelector('[data-testid="price-confirm-send"]') as HTMLElement).click();
    await flushPromises();

    const creates = fake.calls.filter((c) => c.channel === 'batches.create');
    expect(creates.map((c) => (c.args[0] as BatchInput).queue)).toEqual([
      `redis://:${encodeURIComponent(PASSWORD)}@10.0.0.5:6380`,
    ]);
    // The check and the price never carry it.
    const others = fake.calls.filter((c) => c.channel !== 'batches.create');
    expect(others.some((c) => c.channel === 'batches.check')).toBe(true);
    for (const text of [PASSWORD, encodeURIComponent(PASSWORD)])
      expect(JSON.stringify(others.map((c) => c.args))).not.toContain(text);

    // The started batch's card says where its lines are made, by address alone; the page forgot the password.
    await flushPromises();
    expect((wrapper.get('input[aria-label="Queue password"]').element as HTMLInputElement).value).toBe('');
    expect(wrapper.get('[data-testid="batch-queue-where"]').text()).toBe(ADDRESS);
    expect(wrapper.get('[data-testid="batch-queue-rows"]').text()).toBe('This batch’s lines: 2 On the queue');
    for (const shown of [document.body.innerHTML, document.body.textContent ?? '']) {
      expect(shown).not.toContain(PASSWORD);
      expect(shown).not.toContain(encodeURIComponent(PASSWORD));
    }
  });

  it('on this computer, the start request names no queue', async () => {
    const { wrapper, fake } = mountPage();
    await checked(wrapper);
    await wrapper.get('[data-testid="batch-send"]').trigger('click');
    await flushPromises();
    (document.querySelector('[data-testid="price-confirm-send"]') as HTMLElement).click();
    await flushPromises();
    const creates = fake.calls.filter((c) => c.channel === 'batches.create');
    expect(creates.map((c) => (c.args[0] as BatchInput).queue)).toEqual([undefined]);
    expect(wrapper.find('[data-testid="batch-queue"]').exists()).toBe(false);
    expect(fake.calls.some((c) => c.channel === 'batches.queueStatus')).toBe(false);
  });
});
