import { join } from 'node:path';
import type { EventChannel, EventPayloads } from '../../common/bridge';
import { FileLogger } from '../log/file-logger';
import { Redactor } from '../log/redact';
import { secretAwareVault } from '../log/secret-aware-vault';
import { NoticeBoard } from '../system/notice-board';
import { createDispatcher, type Dispatch } from './dispatcher';
import { createDomains, type Domains } from './domains';
import type { CredentialVault, HostBase, PlatformAdapters, RecordStoreFactory } from './types';
import type { RecordStoreDeps } from '../store/record-store';

export type EventListener = <E extends EventChannel>(event: E, payload: EventPayloads[E]) => void;

export interface ComposeOptions {
  host: HostBase['host'];
  appVersion: string;
  dataDir: string;
  /** Builds the vault; it may keep its own record (the desktop vault stores ciphertext). */
  createVault: (createStore: RecordStoreFactory) => CredentialVault;
  platform: PlatformAdapters;
  /** Opens record stores in `dir` (conf in the Node hosts, electron-store in the app). */
  createStoreFactory: (dir: string, deps: RecordStoreDeps) => RecordStoreFactory;
  /** Starts the built-in sandbox; called at most once, on first use. */
  startSandbox: () => Promise<{ baseUrl: string; apiKey: string; close(): Promise<void> }>;
  /** Secrets known up front (from the environment) that must never be logged. */
  knownSecrets?: readonly (string | undefined)[];
  /** Also print log lines (the web host echoes warnings to its terminal). */
  echoLog?: (line: string) => void;
}

export interface ComposedHost {
  base: HostBase;
  domains: Domains;
  dispatch: Dispatch;
  redactor: Redactor;
  /** Adds a receiver of host events (a window, an SSE client); returns its removal. */
  subscribe(listener: EventListener): () => void;
  /**
   * Asks, in the background, for what the first screen lists (the active connection's avatars and
   * voices), so the answers are on their way, and the sandbox started, before the page asks. Never throws.
   */
  warmUp(): void;
  /** Disposes every domain, then stops the sandbox if it was started. */
  dispose(): Promise<void>;
}

/**
 * Builds the services every host runs: the same log, stores, vault, domains and dispatcher whether the
 * studio runs in Electron, behind the web host or in the CLI. The hosts differ only in the options.
 */
export function composeHost(options: ComposeOptions): ComposedHost {
  const redactor = new Redactor();
  for (const secret of options.knownSecrets ?? []) redactor.register(secret);
  const logFile = join(options.dataDir, 'logs', 'studio.log');
  const log = new FileLogger({ file: logFile, redactor, echo: options.echoLog });

  const listeners = new Set<EventListener>();
  const emit = <E extends EventChannel>(event: E, payload: EventPayloads[E]): void => {
    for (const listener of [...listeners]) {
      try {
        listener(event, payload);
      } catch (error) {
        log.warn('event listener failed', { event, error });
      }
    }
  };
  const notices = new NoticeBoard(
    (notice) => emit('notice', notice),
    () => listeners.size > 0,
  );

  let sandbox: ReturnType<ComposeOptions['startSandbox']> | undefined;
  const createStore = options.createStoreFactory(options.dataDir, { log, notify: (notice) => notices.raise(notice) });
  const base: HostBase = {
    host: options.host,
    appVersion: options.appVersion,
    dataDir: options.dataDir,
    log,
    logFile,
    notices,
    createStore,
    vault: secretAwareVault(options.createVault(createStore), redactor),
    platform: options.platform,
    emit,
    async sandbox() {
      sandbox ??= options.startSandbox().then((started) => {
        redactor.register(started.apiKey);
        log.info('sandbox started', { baseUrl: started.baseUrl });
        return started;
      });
      sandbox.catch(() => {
        sandbox = undefined;
      });
      const { baseUrl, apiKey } = await sandbox;
      return { baseUrl, apiKey };
    },
  };

  log.info('host starting', { host: options.host, version: options.appVersion });
  const domains = createDomains(base);
  const dispatch = createDispatcher({ handlers: domains.handlers, log, redact: (text) => redactor.text(text) });

  return {
    base,
    domains,
    dispatch,
    redactor,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    warmUp() {
      // The dispatcher answers failures as values; the page's own ask reports them.
      void dispatch('catalogue.avatars', [{}]);
      void dispatch('catalogue.voices', [{}]);
    },
    async dispose() {
      await domains.disposeAll();
      const started = await sandbox?.catch(() => undefined);
      await started?.close().catch((error: unknown) => log.warn('sandbox did not stop cleanly', { error }));
      log.info('host stopped');
    },
  };
}
