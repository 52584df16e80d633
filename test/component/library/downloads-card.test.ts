import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import { NMessageProvider } from 'naive-ui';
import { useStudioApi } from '@/bridge';
import DownloadsCard from '@/views/settings/DownloadsCard.vue';
import { fakeApi } from './fake-api';

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

describe('Settings → Downloads', () => {
  it('sets how many files download at once and a speed limit for all of them', async () => {
    let stored = { concurrency: 3, speedLimit: null as number | null };
    const fake = fakeApi({
      'downloads.transferSettings': () => stored,
      'downloads.setTransferSettings': (next: unknown) => (stored = next as typeof stored),
    });
    useStudioApi(fake.api);
    const Root = defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(DownloadsCard) }) });
    mount(Root, { attachTo: document.body });
    await flushPromises();
    const card = document.querySelector('[data-testid="downloads-settings"]')!;
    expect(card.textContent).toContain('Off: downloads use the whole connection.');
    (card.querySelector('[role="switch"]') as HTMLElement).click();
    await flushPromises();
    expect(stored).toEqual({ concurrency: 3, speedLimit: 5 * 1024 * 1024 });
    expect(card.textContent).toContain('All downloads together use at most 5 MB/s.');
    const files = card.querySelector('input[aria-labelledby="dl-concurrency"]') as HTMLInputElement;
    files.value = '6';
    files.dispatchEvent(new Event('input'));
    files.dispatchEvent(new Event('blur'));
    await flushPromises();
    expect(stored.concurrency).toBe(6);
  }, 20_000);
});
