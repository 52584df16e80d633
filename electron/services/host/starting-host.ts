import { nextTurn, PreparationStopped, prepareRecords } from '../records/prepare-records';
import { composeBase, composeServices, type ComposedHost, type ComposeOptions, type HostBeginnings } from './compose';
import { toFailure, type Dispatch } from './dispatcher';
import type { Domains } from './domains';
import { StartupProgress } from './startup-progress';

/** The domains' entry points a host's transport (IPC, HTTP, the owner channel) calls besides the bridge. */
export type HostFiles = Pick<
  Domains,
  'importFile' | 'importPath' | 'importSheet' | 'importSheetPath' | 'savedFile' | 'exportFile'
>;

/** A host whose window or page can be served while its records are still being taken in. */
export interface StartingHost extends HostBeginnings {
  progress: StartupProgress;
  /** Answers system.startup at once; every other call waits for the records, then goes to the domains. */
  dispatch: Dispatch;
  domains: HostFiles;
  /** The host once its records are open; rejects when they cannot be (progress says why). */
  ready: Promise<ComposedHost>;
  /** ComposedHost.warmUp once ready. */
  warmUp(): void;
  /** Stops the start at its next pause if it is still going (the next start goes on from there), then disposes. */
  dispose(): Promise<void>;
}

export interface StartOptions {
  /**
   * Holds the first step that may be long until the page has asked how the start goes (or this many
   * milliseconds have passed): the desktop app's window is served by this same event loop, so a schema
   * step that held it before the page had loaded would leave the window blank until the step ended.
   */
  waitForPageMs?: number;
}

/**
 * composeHost for the desktop app and the web host, in two halves: what needs no records at once, so a
 * window or page can show how the start is going, then the folder's records prepared a step at a time
 * (prepareRecords: schema steps, the first start's import of old records) and the domains built on
 * them. The one answer before that is system.startup; every other call waits, so a page cannot act on
 * records that are not there yet.
 */
export function startHost(options: ComposeOptions & StartOptions): StartingHost {
  const beginnings = composeBase(options);
  const { base, redactor } = beginnings;
  const progress = new StartupProgress();
  const stopping = new AbortController();
  let pageAsked = (): void => undefined;
  const page = new Promise<void>((resolve) => {
    pageAsked = resolve;
    if (options.waitForPageMs !== undefined) setTimeout(resolve, options.waitForPageMs).unref?.();
    else resolve();
  });
  const ready = prepareRecords(options.dataDir, {
    signal: stopping.signal,
    pause: () => page.then(nextTurn),
    log: base.log,
    notify: (notice) => base.notices.raise(notice),
    onImport: options.onImport,
    onStage: (stage) => {
      progress.report(stage);
      options.onStage?.(stage);
    },
  }).then(() => {
    const host = composeServices(beginnings, options);
    progress.finish();
    return host;
  });
  ready.catch((error: unknown) => {
    const { message } = toFailure(error, (text) => redactor.text(text));
    if (error instanceof PreparationStopped) base.log.info('start stopped while the records were prepared');
    else base.log.error('records could not be opened', { message });
    progress.fail(message);
  });
  const whenReady = <T>(use: (host: ComposedHost) => Promise<T>): Promise<T> => ready.then(use);
  return {
    ...beginnings,
    progress,
    ready,
    dispatch: async (channel, args) => {
      if (channel === 'system.startup' && Array.isArray(args) && args.length === 0) {
        const value = progress.state();
        // Answered first, then the long step may begin: the page shows what it is while it lasts.
        queueMicrotask(pageAsked);
        return { ok: true, value };
      }
      try {
        return await whenReady((host) => host.dispatch(channel, args));
      } catch (error) {
        return { ok: false, error: { ...toFailure(error, (text) => redactor.text(text)), code: 'not-started' } };
      }
    },
    domains: {
      importFile: (name, body) => whenReady((host) => host.domains.importFile(name, body)),
      importPath: (path) => whenReady((host) => host.domains.importPath(path)),
      importSheet: (name, body) => whenReady((host) => host.domains.importSheet(name, body)),
      importSheetPath: (path) => whenReady((host) => host.domains.importSheetPath(path)),
      savedFile: (id) => whenReady((host) => host.domains.savedFile(id)),
      exportFile: (id) => whenReady((host) => host.domains.exportFile(id)),
    },
    warmUp: () =>
      void ready.then(
        (host) => host.warmUp(),
        () => undefined,
      ),
    dispose: () => {
      stopping.abort();
      pageAsked(); // A quit before the window asked does not wait for it.
      return ready.then(
        (host) => host.dispose(),
        () => beginnings.stopSandbox(),
      );
    },
  };
}
