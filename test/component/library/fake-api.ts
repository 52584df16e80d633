import type { BridgeOutcome, StudioWindowApi } from '@common/bridge';

type Handler = (...args: unknown[]) => unknown;

/** A StudioWindowApi answering from plain functions, recording calls and letting a test push events. */
export function fakeApi(handlers: Record<string, Handler>) {
  const calls: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const callProxy = new Proxy({}, {
    get: (_target, channel: string) => async (...args: unknown[]): Promise<BridgeOutcome> => {
      calls.push({ channel, args });
      const handler = handlers[channel];
      if (!handler) return { ok: false, error: { message: `no fake for ${channel}` } };
      try {
        return { ok: true, value: await handler(...args) };
      } catch (error) {
        return { ok: false, error: { message: error instanceof Error ? error.message : String(error) } };
      }
    },
  });
  const eventProxy = new Proxy({}, {
    get: (_target, event: string) => (handler: (payload: unknown) => void) => {
      const set = listeners.get(event) ?? new Set();
      set.add(handler);
      listeners.set(event, set);
      return () => set.delete(handler);
    },
  });
  const api = { calls: callProxy, events: eventProxy } as StudioWindowApi;
  const push = (event: string, payload: unknown) => {
    for (const handler of listeners.get(event) ?? []) handler(payload);
  };
  return { api, calls, push };
}
