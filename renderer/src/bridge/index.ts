import type {
  CallChannel,
  ChosenMedia,
  ChosenSheet,
  EventChannel,
  EventPayloads,
  StudioApi,
  StudioWindowApi,
} from '@common/bridge';
import { ref } from 'vue';
import { createWebApi } from './web-transport';

declare global {
  interface Window {
    /** Put there by the Electron preload; absent in a browser, where the web transport stands in. */
    studio?: StudioWindowApi;
  }
}

/** A failed bridge call: a message fit to show, and the code the host gave (service code or host code). */
export class BridgeError extends Error {
  constructor(
    message: string,
    readonly code?: string | number,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

let api: StudioWindowApi | undefined;

function studio(): StudioWindowApi {
  api ??=
    window.studio ??
    createWebApi({
      baseUrl: window.location.origin,
      fetch: (input, init) => window.fetch(input, init),
      createEventSource: (url) => new EventSource(url),
    });
  return api;
}

/** For tests: use this api instead of window.studio or the web transport. */
export function useStudioApi(replacement: StudioWindowApi | undefined): void {
  api = replacement;
}

/** Where the bridge runs: inside the desktop app, or in a browser through the web host. */
export function bridgeKind(): 'electron' | 'web' {
  return window.studio ? 'electron' : 'web';
}

/**
 * What the latest call found wrong with the host, null once one is answered: nobody there (the web host
 * was stopped or crashed), or a host that refuses this page (restarted, with a new access token). The
 * status dot shows it.
 */
export const hostTrouble = ref<'unreachable' | 'refused' | null>(null);

/** Calls the host. Resolves with the call's result or rejects with a BridgeError. */
export function call<C extends CallChannel>(channel: C, ...args: Parameters<StudioApi[C]>): ReturnType<StudioApi[C]> {
  const invoke = studio().calls[channel] as (...a: unknown[]) => ReturnType<StudioWindowApi['calls'][C]>;
  const pending = invoke(...args).then((outcome) => {
    const code = outcome.ok ? null : outcome.error.code;
    hostTrouble.value = code === 'host-unreachable' ? 'unreachable' : code === 'host-refused' ? 'refused' : null;
    if (outcome.ok) return outcome.value;
    throw new BridgeError(outcome.error.message, outcome.error.code);
  });
  return pending as ReturnType<StudioApi[C]>;
}

/** Listens to a host event; returns the function that stops listening. */
export function onEvent<E extends EventChannel>(event: E, handler: (payload: EventPayloads[E]) => void): () => void {
  return studio().events[event](handler);
}

/**
 * Opens an http(s) link in the user's browser: through the desktop shell in Electron, as a new tab in
 * the browser (without access back to this page) in the web host.
 */
export async function openExternal(url: string): Promise<void> {
  if (!/^https?:\/\//i.test(url)) throw new BridgeError('Only http and https links can be opened', 'invalid-arguments');
  if (bridgeKind() === 'electron') {
    await call('system.openExternal', url);
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * A local file the user dropped or picked in the page, taken in by the host and granted: resolves with
 * a reference usable wherever media is asked for (it is turned into a link before a job is sent).
 */
export async function importLocalFile(file: File): Promise<ChosenMedia> {
  const outcome = await studio().importFile(file);
  if (outcome.ok) return outcome.value;
  throw new BridgeError(outcome.error.message, outcome.error.code);
}

/** A spreadsheet the user picked for a batch, taken in by the host: its reference and how it was read. */
export async function importSpreadsheet(file: File): Promise<ChosenSheet> {
  const outcome = await studio().importSheet(file);
  if (outcome.ok) return outcome.value;
  throw new BridgeError(outcome.error.message, outcome.error.code);
}
