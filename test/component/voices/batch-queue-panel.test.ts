// A queued batch on the batch page: its card says where its lines are made; opened, it shows the queue's
// panel (the Campaigns page's): its lines by state as the host reports them, the queue's counts, and each
// worker connected to it with for how long; read again every few seconds while shown, not once
// the window is hidden or another batch is open. A batch made here has no panel and reads no queue. The
// refresh timer is Vitest's fake clock, moved by the test: nothing waits on real time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import type { QueueStatus } from '@common/bridge/queue-status';
import { useStudioApi } from '@/bridge';
import { batchView, mountBatchPanel, summaryOf } from './mount-batch-panel';

const ADDRESS = 'redis://10.0.0.5:6380';

function answer(overrides: Partial<QueueStatus> = {}): QueueStatus {
  return {
    queue: ADDRESS,
    checkedAt: 100_000,
    counts: { waiting: 7, active: 2, delayed: 1, failed: 0 },
    workers: [
      { name: 'voice-1:12', host: 'voice-1', connectedAt: 96_000, running: 1, done: 30 },
      { name: 'voice-2:40', host: 'voice-2', connectedAt: 70_000 - 600_000, running: 1, done: 11 },
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

function mountPage(answers: QueueStatus[]) {
  const views = {
    queued: batchView('queued', { queued: 2, waiting: 1, completed: 3, failed: 1 }, ADDRESS, 2),
    here: batchView('here', { completed: 4 }, null, 1),
  };
  let next = 0;
  const { wrapper, fake } = mountBatchPanel({
    'batches.list': () => [summaryOf(views.queued), summaryOf(views.here)],
    'batches.get': (id) => views[id as keyof typeof views],
    'batches.queueStatus': () => answers[Math.min(next++, answers.length - 1)],
  });
  const asked = () => fake.calls.filter((c) => c.channel === 'batches.queueStatus');
  return { wrapper, fake, views, asked };
}

async function open(wrapper: VueWrapper, label: string): Promise<void> {
  const title = wrapper.findAll('[data-testid="batch-list"] button.title').find((b) => b.text().startsWith(label));
  await title?.trigger('click');
  await flushPromises();
}

const cells = (wrapper: VueWrapper) =>
  wrapper.findAll('[data-testid="batch-queue-workers"] tbody tr').map((tr) => tr.findAll('td').map((td) => td.text()));

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => {
  vi.useRealTimers();
  windowShown(true);
  useStudioApi(undefined);
});

describe('the queue of a batch on the batch page', () => {
  it('says on its card where its lines are made; opened, its lines by state, the queue’s counts and its workers and for how long', async () => {
    const { wrapper, asked } = mountPage([answer()]);
    await flushPromises();
    // Closed, a card says the address alone and reads nothing; a batch made here says nothing of a queue.
    expect(wrapper.findAll('[data-testid="batch-on-queue"]').map((n) => n.text())).toEqual([
      `On the queue at ${ADDRESS}`,
    ]);
    expect(asked()).toHaveLength(0);

    await open(wrapper, 'queued.csv');
    expect(asked().map((c) => c.args)).toEqual([['queued']]);
    expect(wrapper.get('[data-testid="batch-queue"]').text()).toContain(`On the queue at ${ADDRESS}`);
    expect(wrapper.get('[data-testid="batch-queue-rows"]').text()).toBe(
      'This batch’s lines: 2 On the queue · 1 Waiting · 3 Done · 1 Failed',
    );
    expect(wrapper.get('[data-testid="batch-queue-counts"]').text()).toBe(
      'On the queue (every campaign and batch sent to it): 7 waiting · 2 being made · 1 waiting to retry · 0 failed (kept for review)',
    );
    expect(cells(wrapper)).toEqual([
      ['voice-1:12', 'voice-1', 'for 4 s', '1', '30'],
      ['voice-2:40', 'voice-2', 'for 10 min', '1', '11'],
    ]);
  });

  it('follows the batch as it changes, reads the queue again while shown, and stops when hidden or another batch is open', async () => {
    const later = answer({ checkedAt: 103_000, workers: [{ ...answer().workers[0], done: 31 }] });
    const { wrapper, fake, views, asked } = mountPage([answer(), later]);
    await flushPromises();
    await open(wrapper, 'queued.csv');
    expect(asked()).toHaveLength(1);

    // A worker reported a line: the host's change event brings the batch's new counts.
    const moved = batchView('queued', { queued: 1, waiting: 1, completed: 4, failed: 1 }, ADDRESS, 2);
    views.queued = moved;
    fake.push('batches.changed', summaryOf(moved));
    await flushPromises();
    expect(wrapper.get('[data-testid="batch-queue-rows"]').text()).toBe(
      'This batch’s lines: 1 On the queue · 1 Waiting · 4 Done · 1 Failed',
    );

    await vi.advanceTimersByTimeAsync(3_000);
    await flushPromises();
    expect(asked()).toHaveLength(2);
    expect(cells(wrapper)).toEqual([['voice-1:12', 'voice-1', 'for 7 s', '1', '31']]);

    windowShown(false);
    await flushPromises();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(asked()).toHaveLength(2);
    windowShown(true);
    await flushPromises();
    expect(asked()).toHaveLength(3);

    // Another batch open: the queued one's panel is gone and nothing more is read.
    await open(wrapper, 'here.csv');
    expect(wrapper.find('[data-testid="batch-queue"]').exists()).toBe(false);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(asked()).toHaveLength(3);
  });

  it('says why the queue cannot be read', async () => {
    const problem = `Redis at ${ADDRESS} cannot be reached: nothing listens at 10.0.0.5:6380 (connection refused). Rows wait until it is back.`;
    const { wrapper } = mountPage([answer({ counts: null, workers: [], problem })]);
    await flushPromises();
    await open(wrapper, 'queued.csv');
    expect(wrapper.get('[data-testid="batch-queue-problem"]').text()).toBe(problem);
    expect(wrapper.find('[data-testid="batch-queue-workers"]').exists()).toBe(false);
    // The batch is still shown, its lines by state with it.
    expect(wrapper.get('[data-testid="batch-queue-rows"]').text()).toContain('2 On the queue');
  });
});
