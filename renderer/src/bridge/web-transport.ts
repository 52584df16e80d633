import PQueue from 'p-queue';
import {
  bridgeOutcomeSchema,
  callChannels,
  eventChannels,
  type BridgeOutcome,
  type CallChannel,
  type EventChannel,
  type StudioWindowApi,
  WEB_BRIDGE_PATHS,
} from '@common/bridge';

/**
 * Calls that read media (a download, an ffmpeg run) and that a page makes many of at once: a voice
 * list's waveforms, a filmstrip's frames, a project's link checks. A browser keeps at most six
 * connections to one host, and the event stream holds one; unbounded, six waveforms took the other five
 * and every other call (a batch check, a save) waited behind them for seconds.
 */
const MEDIA_READS: ReadonlySet<CallChannel> = new Set<CallChannel>([
  'media.waveform',
  'media.frame',
  'media.probe',
  'media.checkLinks',
]);
const MEDIA_READS_AT_ONCE = 2;

export interface WebTransportDeps {
  /** Origin of the web host; the page's own origin in the browser. */
  baseUrl: string;
  fetch: typeof fetch;
  createEventSource: (url: string) => EventSource;
}

async function post(deps: WebTransportDeps, channel: string, args: unknown[]): Promise<BridgeOutcome> {
  let response: Response;
  try {
    response = await deps.fetch(new URL(WEB_BRIDGE_PATHS.call + encodeURIComponent(channel), deps.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
      credentials: 'same-origin',
    });
  } catch {
    return {
      ok: false,
      error: { message: 'The studio host is not reachable; is it still running?', code: 'host-unreachable' },
    };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const parsed = bridgeOutcomeSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  if (response.status === 401 || response.status === 403) {
    return {
      ok: false,
      error: { message: 'The studio host refused this page; open the address it printed again', code: 'host-refused' },
    };
  }
  return {
    ok: false,
    error: { message: `The studio host answered ${response.status} without a result`, code: 'host-error' },
  };
}

/**
 * The browser's window.studio: one POST per call, events over one shared EventSource. Built from the
 * bridge channel lists, exactly like the preload builds the Electron one.
 */
export function createWebApi(deps: WebTransportDeps): StudioWindowApi {
  let source: EventSource | undefined;
  const handlers = new Map<EventChannel, Set<(payload: unknown) => void>>();

  const listen = (event: EventChannel): Set<(payload: unknown) => void> => {
    let set = handlers.get(event);
    if (set) return set;
    set = new Set();
    handlers.set(event, set);
    source ??= deps.createEventSource(new URL(WEB_BRIDGE_PATHS.events, deps.baseUrl).href);
    const current = set;
    source.addEventListener(event, (message) => {
      let payload: unknown;
      try {
        payload = JSON.parse((message as MessageEvent<string>).data);
      } catch {
        return;
      }
      for (const handler of [...current]) handler(payload);
    });
    return set;
  };

  const mediaReads = new PQueue({ concurrency: MEDIA_READS_AT_ONCE });
  const send = (channel: CallChannel, args: unknown[]): Promise<BridgeOutcome> =>
    MEDIA_READS.has(channel)
      ? mediaReads.add(() => post(deps, channel, args), { throwOnTimeout: true })
      : post(deps, channel, args);
  const calls = Object.fromEntries(
    callChannels.map((channel) => [channel, (...args: unknown[]) => send(channel, args)]),
  ) as unknown as StudioWindowApi['calls'];

  const events = Object.fromEntries(
    eventChannels.map((event) => [
      event,
      (handler: (payload: unknown) => void) => {
        const set = listen(event);
        set.add(handler);
        return () => set.delete(handler);
      },
    ]),
  ) as unknown as StudioWindowApi['events'];

  // The page cannot tell the host a dropped file's path, so it sends the bytes.
  const upload =
    (path: string) =>
    async (file: File): Promise<BridgeOutcome> => {
      try {
        const response = await deps.fetch(new URL(path + encodeURIComponent(file.name), deps.baseUrl), {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          body: file,
          credentials: 'same-origin',
        });
        const parsed = bridgeOutcomeSchema.safeParse(await response.json().catch(() => undefined));
        if (parsed.success) return parsed.data;
        return {
          ok: false,
          error: { message: `The studio host answered ${response.status} without a result`, code: 'host-error' },
        };
      } catch {
        return {
          ok: false,
          error: { message: 'The studio host is not reachable; is it still running?', code: 'host-unreachable' },
        };
      }
    };

  const importFile = upload(WEB_BRIDGE_PATHS.importFile) as StudioWindowApi['importFile'];
  const importSheet = upload(WEB_BRIDGE_PATHS.importSheet) as StudioWindowApi['importSheet'];
  return { calls, events, importFile, importSheet };
}
