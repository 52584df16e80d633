import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StudioWindowApi } from '@common/bridge';
import { createWebApi } from '../../../renderer/src/bridge/web-transport';
import { until } from '../../wait';

// The renderer bridge reads `window`; give it a minimal one in this node test.
vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:9' } });
const { BridgeError, call, onEvent, useStudioApi } = await import('../../../renderer/src/bridge/index');

function fakeSource() {
  const listeners = new Map<string, (message: { data: string }) => void>();
  return {
    listeners,
    source: {
      addEventListener: (name: string, l: (message: { data: string }) => void) => listeners.set(name, l),
    } as unknown as EventSource,
  };
}

describe('renderer bridge over the web transport', () => {
  afterEach(() => useStudioApi(undefined));

  it('POSTs the argument array to the channel path and unwraps the value', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ ok: true, value: { ffmpegPath: null, ffprobePath: null, notifications: false } }),
        ),
    );
    useStudioApi(createWebApi({ baseUrl: 'http://127.0.0.1:9', fetch, createEventSource: () => fakeSource().source }));
    await expect(call('settings.update', { notifications: false })).resolves.toMatchObject({ notifications: false });
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(String(url)).toBe('http://127.0.0.1:9/bridge/call/settings.update');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual([{ notifications: false }]);
  });

  it('resolves a call that returns nothing (the host answers {"ok":true} without a value)', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: undefined })));
    useStudioApi(createWebApi({ baseUrl: 'http://127.0.0.1:9', fetch, createEventSource: () => fakeSource().source }));
    await expect(call('projects.discardRecovery', 'p1')).resolves.toBeUndefined();
  });

  it('throws BridgeError with the host message and code', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ ok: false, error: { message: 'Invalid argument 1', code: 'invalid-arguments' } }),
        ),
    );
    useStudioApi(createWebApi({ baseUrl: 'http://127.0.0.1:9', fetch, createEventSource: () => fakeSource().source }));
    const error = await call('settings.get').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ message: 'Invalid argument 1', code: 'invalid-arguments' });
  });

  it('explains an unreachable or refusing host', async () => {
    const down = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    useStudioApi(
      createWebApi({ baseUrl: 'http://127.0.0.1:9', fetch: down, createEventSource: () => fakeSource().source }),
    );
    await expect(call('settings.get')).rejects.toMatchObject({ code: 'host-unreachable' });
    const refused = vi.fn(async () => new Response('refused', { status: 401 }));
    useStudioApi(
      createWebApi({ baseUrl: 'http://127.0.0.1:9', fetch: refused, createEventSource: () => fakeSource().source }),
    );
    await expect(call('settings.get')).rejects.toMatchObject({ code: 'host-refused' });
  });

  it('delivers SSE events to every subscriber until it unsubscribes, over one EventSource', () => {
    const fake = fakeSource();
    const create = vi.fn(() => fake.source);
    useStudioApi(createWebApi({ baseUrl: 'http://127.0.0.1:9', fetch: vi.fn(), createEventSource: create }));
    const a: unknown[] = [];
    const b: unknown[] = [];
    const stopA = onEvent('notice', (n) => a.push(n.title));
    onEvent('notice', (n) => b.push(n.title));
    onEvent('settings.changed', () => undefined);
    expect(create).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith('http://127.0.0.1:9/bridge/events');
    fake.listeners.get('notice')!({ data: JSON.stringify({ level: 'info', title: 'one' }) });
    stopA();
    fake.listeners.get('notice')!({ data: JSON.stringify({ level: 'info', title: 'two' }) });
    expect(a).toEqual(['one']);
    expect(b).toEqual(['one', 'two']);
  });

  it('prefers window.studio when the preload provided it', async () => {
    const api = {
      calls: { 'settings.get': vi.fn(async () => ({ ok: true, value: 'from-preload' })) },
      events: {},
    } as unknown as StudioWindowApi;
    useStudioApi(api);
    await expect(call('settings.get')).resolves.toBe('from-preload');
  });

  it('reads media two calls at a time, so a page asking for many waveforms leaves connections for every other call', async () => {
    const held: { channel: string; answer: () => void }[] = [];
    const fetch = vi.fn(
      (url: URL) =>
        new Promise<Response>((resolve) => {
          held.push({
            channel: decodeURIComponent(String(url).split('/').pop()!),
            answer: () => resolve(new Response(JSON.stringify({ ok: true, value: null }))),
          });
        }),
    );
    useStudioApi(
      createWebApi({
        baseUrl: 'http://127.0.0.1:9',
        fetch: fetch as unknown as typeof globalThis.fetch,
        createEventSource: () => fakeSource().source,
      }),
    );
    const waveforms = Array.from({ length: 6 }, (_, i) =>
      call('media.waveform', `file:///voice-${i}.mp3`, { buckets: 100 }),
    );
    const check = call('settings.get');
    await until(
      'two waveform calls and the settings call to be held',
      () =>
        held
          .map((h) => h.channel)
          .sort()
          .join() === 'media.waveform,media.waveform,settings.get',
    );
    // The other call is answered while the waveforms are still waiting for their turn.
    held.find((h) => h.channel === 'settings.get')!.answer();
    await expect(check).resolves.toBeNull();
    // Each waveform answered lets the next one go, never more than two at once.
    for (let answered = 0; answered < 6; answered += 1) {
      await until(
        `${Math.min(6, answered + 2)} waveform calls to be sent`,
        () => held.filter((h) => h.channel === 'media.waveform').length === Math.min(6, answered + 2),
      );
      held.filter((h) => h.channel === 'media.waveform')[answered].answer();
    }
    await expect(Promise.all(waveforms)).resolves.toHaveLength(6);
  });
});
