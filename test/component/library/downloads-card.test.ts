import { afterEach, describe, expect, it } from 'vitest';
import type { Notice } from '@common/bridge';
import { showSystemNotification, type NotificationEnv } from '@/shell/system-notifications';
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

function mountCard(notifications?: NotificationEnv) {
  const Root = defineComponent({
    render: () => h(NMessageProvider, null, { default: () => h(DownloadsCard, { notifications }) }),
  });
  return mount(Root, { attachTo: document.body });
}

/** A stand-in for the browser's Notification: what was shown, and the user's answer to the question. */
function stubNotifications(
  permission: NotificationPermission,
  answer: NotificationPermission = permission,
  elsewhere = true,
) {
  const shown: { title: string; body?: string }[] = [];
  const asked: string[] = [];
  const Stub = class {
    static permission = permission;
    static async requestPermission() {
      asked.push('asked');
      Stub.permission = answer;
      return answer;
    }
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body });
    }
  };
  const env: NotificationEnv = {
    Notification: Stub as unknown as NotificationEnv['Notification'],
    elsewhere: () => elsewhere,
  };
  return { env, shown, asked };
}

describe('Settings → Downloads', () => {
  it('sets how many files download at once and a speed limit for all of them', async () => {
    let stored = { concurrency: 3, speedLimit: null as number | null };
    const fake = fakeApi({
      'downloads.transferSettings': () => stored,
      'downloads.setTransferSettings': (next: unknown) => (stored = next as typeof stored),
    });
    useStudioApi(fake.api);
    mountCard();
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
  }, 120_000);

  it('asks the browser for notifications from a click, and says where they are blocked', async () => {
    useStudioApi(fakeApi({ 'downloads.transferSettings': () => ({ concurrency: 3, speedLimit: null }) }).api);
    const ask = stubNotifications('default', 'granted');
    mountCard(ask.env);
    await flushPromises();
    const row = () => document.querySelector('[data-testid="download-notifications"]')!;
    expect(ask.asked).toEqual([]);
    expect(row().textContent).toContain(
      'Let this browser tell you when a download run or an archive catch-up ends or fails',
    );
    (row().querySelector('button') as HTMLButtonElement).click();
    await flushPromises();
    expect(ask.asked).toEqual(['asked']);
    expect(row().textContent).toContain('On: this browser tells you');
    expect(row().querySelector('button')).toBeNull();

    document.body.innerHTML = '';
    mountCard(stubNotifications('denied').env);
    await flushPromises();
    expect(row().textContent).toContain("Blocked in this browser's site settings");
    expect(row().querySelector('button')).toBeNull();

    document.body.innerHTML = '';
    mountCard({ Notification: undefined, elsewhere: () => true });
    await flushPromises();
    expect(document.querySelector('[data-testid="download-notifications"]')).toBeNull();
  }, 120_000);

  it("shows a download run's end as a system notification only where allowed, marked, and while the user is elsewhere", () => {
    const ended: Notice = {
      level: 'success',
      title: '3 downloads finished',
      detail: 'Saved in /home/me/Videos.',
      system: true,
    };
    const granted = stubNotifications('granted');
    expect(showSystemNotification(ended, granted.env)).toBe(true);
    expect(granted.shown).toEqual([{ title: '3 downloads finished', body: 'Saved in /home/me/Videos.' }]);
    // Not marked by the host (notifications off in Settings, or not a run's end), not allowed, or the user is looking at the page.
    const cases: [Notice, ReturnType<typeof stubNotifications>][] = [
      [{ ...ended, system: false }, stubNotifications('granted')],
      [{ level: 'info', title: 'Settings file set aside' }, stubNotifications('granted')],
      [ended, stubNotifications('default')],
      [ended, stubNotifications('denied')],
      [ended, stubNotifications('granted', 'granted', false)],
    ];
    for (const [notice, stub] of cases) {
      expect(showSystemNotification(notice, stub.env)).toBe(false);
      expect(stub.shown).toEqual([]);
    }
  });
});
