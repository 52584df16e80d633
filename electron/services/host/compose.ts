import { join } from 'node:path';
import type { EventChannel, EventPayloads } from '../../common/bridge';
import { FileLogger } from '../log/file-logger';
import { Redactor } from '../log/redact';
import { secretAwareVault } from '../log/secret-aware-vault';
import { NoticeBoard } from '../system/notice-board';
import { createDispatcher, type Dispatch } from './dispatcher';
import { createDomains, type DomainOptions, type Domains } from './domains';
import type { CredentialVault, HostBase, Logger, PlatformAdapters, RecordStoreFactory } from './types';
import { writePendingRecords, type RecordStoreDeps } from '../store/record-store';

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
  /**
   * The log sink, instead of the data folder's log file (the command line writes to its stderr, quiet
   * unless --verbose). It receives the redactor, so secrets stay out of it too.
   */
  log?: (redactor: Redactor) => Logger;
  /** Which connection new work goes to; default the folder's active one (the command line passes its choice). */
  route?: DomainOptions['route'];
  /** Where a storage may be declared (STUDIO_S3_*), for the Node hosts; default process.env. */
  env?: DomainOptions['env'];
  /** What starts with the host (see HostStart); default `resume`, as the desktop app and web host do. */
  start?: DomainOptions['start'];
  /** What a `studio worker` shares with the other workers in Redis (intents, the day's spending). */
  shared?: DomainOptions['shared'];
  limiter?: DomainOptions['limiter'];
  callbacks?: DomainOptions['callbacks'];
  /** Prints how the first start's import of the old job journal is going (a terminal line). */
  onImport?: DomainOptions['onImport'];
  /**
   * Told each step of the records: the desktop app and the web host prepare them a step at a time
   * (startHost), every host takes the other old records in; the hosts print the longer ones.
   */
  onStage?: DomainOptions['onStage'];
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
 * studio runs in Electron, behind the web host or in the CLI. The hosts differ only in the options:
 * the vault, the log sink, the platform (dialogs, notifications), the sandbox starter, and for the
 * command line the connection it chose, its environment and what starts with it.
 */
export function composeHost(options: ComposeOptions): ComposedHost {
  return composeServices(composeBase(options), options);
}

/** What a host has before its records are open: its log, stores, vault, notices and event listeners. */
export interface HostBeginnings {
  base: HostBase;
  redactor: Redactor;
  subscribe: ComposedHost['subscribe'];
  /** Stops the sandbox if a domain started it. */
  stopSandbox(): Promise<void>;
}

/** The first half of composeHost: everything but the domains (which open the folder's records). */
export function composeBase(options: ComposeOptions): HostBeginnings {
  const redactor = new Redactor();
  for (const secret of options.knownSecrets ?? []) redactor.register(secret);
  const fileOfLog = join(options.dataDir, 'logs', 'studio.log');
  const logFile = options.log ? null : fileOfLog;
  const log: Logger = options.log
    ? options.log(redactor)
    : new FileLogger({ file: fileOfLog, redactor, echo: options.echoLog });

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
  return {
    base,
    redactor,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stopSandbox() {
      const started = await sandbox?.catch(() => undefined);
      await started?.close().catch((error: unknown) => log.warn('sandbox did not stop cleanly', { error }));
    },
  };
}

/** The second half of composeHost: the domains on the host's base, and the dispatcher in front of them. */
export function composeServices(beginnings: HostBeginnings, options: ComposeOptions): ComposedHost {
  const { base, redactor } = beginnings;
  const { log } = base;
  const domains = createDomains(base, {
    route: options.route,
    env: options.env,
    start: options.start,
    shared: options.shared,
    limiter: options.limiter,
    callbacks: options.callbacks,
    onImport: options.onImport,
    onStage: options.onStage,
  });
  const dispatch = createDispatcher({ handlers: domains.handlers, log, redact: (text) => redactor.text(text) });

  return {
    base,
    domains,
    dispatch,
    redactor,
    subscribe: beginnings.subscribe,
    warmUp() {
      // The dispatcher answers failures as values; the page's own ask reports them.
      void dispatch('catalogue.avatars', [{}]);
      void dispatch('catalogue.voices', [{}]);
    },
    async dispose() {
      await domains.disposeAll();
      writePendingRecords();
      await beginnings.stopSandbox();
      log.info('host stopped');
    },
  };
}
