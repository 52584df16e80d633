import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { useStudioApi } from '@/bridge';
import CreditBalance from '@/shell/CreditBalance.vue';
import { fakeApi } from '../library/fake-api';

afterEach(() => useStudioApi(undefined));

async function shown(credit: number | null, props: Record<string, unknown>): Promise<string> {
  useStudioApi(fakeApi({ 'connections.balance': () => ({ connectionId: 'sandbox', credit }) }).api);
  const wrapper = mount(CreditBalance, { props });
  await flushPromises();
  return wrapper.text();
}

describe('credit balance before a paid job', () => {
  it('shows the balance and what is left after the estimated cost', async () => {
    expect(await shown(1000, { beforeJob: true, cost: 30 })).toMatch(
      /Balance: 1,000 credits · about 970 left after this job/,
    );
    expect(await shown(1000, { beforeJob: true, cost: null })).toBe('Balance: 1,000 credits');
  });

  it('says when the balance does not cover the job', async () => {
    expect(await shown(20, { beforeJob: true, cost: 30 })).toContain('not enough for this job (it needs about 30)');
  });

  it('shows nothing when the service does not answer its balance', async () => {
    expect(await shown(null, { beforeJob: true, cost: 30 })).toBe('');
    expect(await shown(null, {})).toBe('');
  });
});
