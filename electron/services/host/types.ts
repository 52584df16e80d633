import type { z } from 'zod';
import type { CallMap, EventChannel, EventPayloads, Notice } from '../../common/bridge';

/** The implementation of every call in a domain's call map. Arguments arrive already validated. */
export type Handlers<M extends CallMap> = {
  [K in keyof M]: (...args: z.infer<M[K]['args']>) => Promise<z.infer<M[K]['result']>>;
};

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * A typed, versioned JSON record on disk (settings, connections, the job ledger, ...). The Electron
 * host backs it with electron-store, the Node hosts with conf; tests with memory.
 */
export interface RecordStore<T> {
  get(): T;
  set(value: T): void;
  update(change: (current: T) => T): T;
  readonly path: string;
}

export interface RecordStoreSpec<T> {
  /** File name without extension, e.g. "settings". */
  name: string;
  schema: z.ZodType<T>;
  defaults: T;
  /** Current schema version; migrations[n] upgrades a record of version n to n+1. */
  version: number;
  migrations?: Record<number, (old: unknown) => unknown>;
  /**
   * For a record that only saves work (what was uploaded, which files were granted): changes are written
   * at most this often and when the host stops or the process exits, instead of the whole file on every
   * change, which a long campaign made quadratic. A crash loses the last ones, which costs redoing that
   * work, never a user's data. Checked against the schema when written.
   */
  writeBehindMs?: number;
}

export type RecordStoreFactory = <T>(spec: RecordStoreSpec<T>) => RecordStore<T>;

/** Encrypts secrets at rest. SafeStorageVault in Electron, EnvVault/MemoryVault in the Node hosts. */
export interface CredentialVault {
  /** Human-readable name of the protection, shown in Settings ("Keychain", "environment", ...). */
  readonly protection: 'os-encryption' | 'weak' | 'memory' | 'environment';
  readonly persistent: boolean;
  set(id: string, secret: string): Promise<void>;
  get(id: string): Promise<string | undefined>;
  has(id: string): Promise<boolean>;
  delete(id: string): Promise<void>;
}

/** Desktop integration a host may or may not offer; the web host offers none of it. */
export interface PlatformAdapters {
  notify?(title: string, body: string): void;
  /** 0..1 while work runs, null to clear. */
  setProgress?(fraction: number | null): void;
  openPath?(path: string): Promise<void>;
  /** Opens an http(s) address in the user's browser (Electron's shell); the web page opens links itself. */
  openExternal?(url: string): Promise<void>;
  /** Native save/open dialogs; absent in the web host, whose UI uses its own pickers. */
  chooseSavePath?(options: { title: string; defaultName: string; extensions: string[] }): Promise<string | null>;
  chooseOpenPath?(options: { title: string; extensions: string[] }): Promise<string | null>;
  chooseFolder?(options: { title: string }): Promise<string | null>;
  /** Lets the page use the camera/microphone (desktop app) until the returned function is called. */
  grantMedia?(kinds: Array<'audio' | 'video'>): () => void;
}

export interface NoticeSink {
  raise(notice: Notice): void;
  /** Notices nobody has seen yet (raised before a window or page was listening); taking clears them. */
  takePending(): Notice[];
}

/** What every domain's handler factory receives from the composition root (main or web host). */
export interface HostBase {
  host: 'electron' | 'web' | 'cli';
  appVersion: string;
  /** Folder for the app's own records, caches and autosaves. */
  dataDir: string;
  log: Logger;
  /** The current log file, shown in Settings; null when the host logs only to memory. */
  logFile: string | null;
  /** Tells the user something (shown as a toast; kept until a window can show it). */
  notices: NoticeSink;
  createStore: RecordStoreFactory;
  vault: CredentialVault;
  platform: PlatformAdapters;
  emit<E extends EventChannel>(event: E, payload: EventPayloads[E]): void;
  /**
   * Starts the built-in sandbox (electron/emulator) on first use and returns where it listens and the
   * key it accepts. Services never import the emulator themselves; the composition root provides this.
   */
  sandbox(): Promise<{ baseUrl: string; apiKey: string }>;
}

/** A domain plugged into a host: its handlers, and what to do on quit. */
export interface DomainModule<M extends CallMap> {
  handlers: Handlers<M>;
  dispose?(): Promise<void>;
}
