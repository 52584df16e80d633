// The queue panel of a campaign made on a queue: where it is, its rows by state, the queue's counts and
// the workers connected to it (for how long, in seconds, minutes or hours), read again every few seconds while the panel
// is on screen and not while the window is hidden or the panel is gone; a Redis that cannot be read is
// said in words. The refresh timer is Vitest's fake clock, moved by the test: nothing waits on real time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import type { CampaignQueueStatus } from '@common/bridge/campaigns';
import { useStudioApi } from '@/bridge';
import QueuePanel from '@/queue/QueuePanel.vue';
import { campaignQueueRows } from '@/views/campaigns/campaign-logic';
import { fakeApi } from '../library/fake-api';

const ADDRESS = 'redis://10.0.0.5:6380';

function answer(overrides: Partial<CampaignQueueStatus> = {}): CampaignQueueStatus {
  return {
    queue: ADDRESS,
    checkedAt: 100_000,
    counts: { waiting: 12, active: 3, delayed: 0, failed: 1 },
    workers: [
      { name: 'render-1:401', host: 'render-1', connectedAt: 97_000, running: 2, done: 14 },
      { name: 'render-2:77', host: 'render-2', connectedAt: 100_000 - 7_500_000, running: 1, done: 9 },
    ],
    problem: null,
    ...overrides,
  };
}

/** The window shown or hidden, as the browser says it when the user switches away. */
function windowShown(shown: boolean): void {
  Object.defineProperty(document, 'visibilityState', { value: shown ? 'visible' : 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

function mountPanel(answers: CampaignQueueStatus[], queue: string | null = ADDRESS) {
  let next = 0;
  const fake = fakeApi({ 'campaigns.queueStatus': () => answers[Math.min(next++, answers.length - 1)] });
  useStudioApi(fake.api);
  const counts = { done: 5, pending: 12, video: 3, failed: 1 };
  const wrapper = mount(QueuePanel, {
    props: { kind: 'campaign', run: { id: 'c1', queue }, rows: campaignQueueRows(counts), refreshMs: 3_000 },
    attachTo: document.body,
  });
  const asked = () => fake.calls.filter((c) => c.channel === 'campaigns.queueStatus').length;
  return { wrapper, asked };
}

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => {
  vi.useRealTimers();
  windowShown(true);
  useStudioApi(undefined);
});

describe('the queue panel of a campaign', () => {
  it('says why a worker refuses this campaign’s rows, and not another run’s refusal', async () => {
    const reason =
      'Worker other-1 makes no row of campaign c1: this worker has no credentials for http://127.0.0.1:4780.';
    const workers = [
      {
        name: 'other-1',
        host: 'h',
        connectedAt: 99_000,
        running: 0,
        done: 0,
        refuses: [{ run: 'campaign/c1', reason }],
      },
      {
        name: 'other-2',
        host: 'h',
        connectedAt: 99_000,
        running: 0,
        done: 0,
        refuses: [{ run: 'campaign/c9', reason: 'not this run' }],
      },
    ];
    const { wrapper } = mountPanel([answer({ workers })]);
    await flushPromises();
    const said = wrapper.findAll('[data-testid="campaign-queue-refused"]').map((p) => p.text());
    expect(said).toEqual([`${reason} This campaign’s rows wait for a worker of its own account.`]);
    wrapper.unmount();
  });

  it('says where the rows are made, the rows by state, the queue’s counts and the workers connected to it, for how long', async () => {
    const { wrapper } = mountPanel([answer()]);
    await flushPromises();
    expect(wrapper.get('[data-testid="campaign-queue"]').text()).toContain(`On the queue at ${ADDRESS}`);
    expect(wrapper.get('[data-testid="campaign-queue-rows"]').text()).toBe(
      'This campaign’s rows: 3 On the queue · 12 Waiting · 5 Done · 1 Failed',
    );
    expect(wrapper.get('[data-testid="campaign-queue-counts"]').text()).toBe(
      'On the queue (every campaign and batch sent to it): 12 waiting · 3 being made · 0 waiting to retry · 1 failed (kept for review)',
    );
    const lines = wrapper.findAll('[data-testid="campaign-queue-workers"] tbody tr');
    expect(lines.map((tr) => tr.findAll('td').map((td) => td.text()))).toEqual([
      ['render-1:401', 'render-1', 'for 3 s', '2', '14'],
      ['render-2:77', 'render-2', 'for 2 h', '1', '9'],
    ]);
  });

  it('reads the queue again every few seconds while shown, stops while the window is hidden, and once gone', async () => {
    const later = answer({ checkedAt: 103_000, workers: [{ ...answer().workers[0], connectedAt: 0, done: 15 }] });
    const { wrapper, asked } = mountPanel([answer(), later]);
    await flushPromises();
    expect(asked()).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000);
    await flushPromises();
    expect(asked()).toBe(2);
    expect(wrapper.findAll('tbody tr').map((tr) => tr.findAll('td')[2].text())).toEqual(['for 1 min']);

    windowShown(false);
    await flushPromises();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(asked()).toBe(2);
    // Shown again: read at once, then every few seconds as before.
    windowShown(true);
    await flushPromises();
    expect(asked()).toBe(3);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(asked()).toBe(4);

    wrapper.unmount();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(asked()).toBe(4);
  });

  it('says why the queue cannot be read, and that no worker is connected when none is', async () => {
    const problem = `Redis at ${ADDRESS} cannot be reached: nothing listens at 10.0.0.5:6380 (connection refused). Rows wait until it is back.`;
    const { wrapper } = mountPanel([answer({ counts: null, workers: [], problem }), answer({ workers: [] })]);
    await flushPromises();
    expect(wrapper.get('[data-testid="campaign-queue-problem"]').text()).toBe(problem);
    expect(wrapper.find('[data-testid="campaign-queue-workers"]').exists()).toBe(false);
    // Redis back, no worker on it yet.
    await vi.advanceTimersByTimeAsync(3_000);
    await flushPromises();
    expect(wrapper.find('[data-testid="campaign-queue-problem"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="campaign-queue-no-workers"]').text()).toContain(
      `No worker is connected to this queue: rows wait until one takes them (studio worker --queue ${ADDRESS})`,
    );
  });

  it('shows nothing and reads nothing for a campaign made on this computer', async () => {
    const { wrapper, asked } = mountPanel([answer()], null);
    await flushPromises();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(wrapper.find('[data-testid="campaign-queue"]').exists()).toBe(false);
    expect(asked()).toBe(0);
  });
});
