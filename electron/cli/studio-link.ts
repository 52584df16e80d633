import type { RowMaker } from '../services/rows/queue/row-worker';
import type { RunAccount } from '../services/client/account-proof';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallChannel, EventChannel, EventPayloads, StudioApi } from '../common/bridge';
import type { ChosenSheet } from '../common/bridge/batches';
import type { ChosenMedia } from '../common/bridge/media';
import type { ComposedHost } from '../services/host/compose';
import { toFailure } from '../services/host/dispatcher';
import { OwnerCallError, type OwnerLink } from '../services/host/owner-client';
import { takeNamedFile, type NamedFileUse } from '../services/host/owner-files';
import { RefusedError } from './command';

/**
 * What a command talks to: the bridge contract, the same whoever performs it. Either this run's own
 * composed services (it owns the data folder, or reads it beside a studio it cannot reach), or the
 * studio that owns the folder, over its owner channel. A command is written once against this.
 */
export interface StudioLink {
  /** Who performs the calls: "command line" for this run's own services, else the owner's kind ("web host"). */
  kind: string;
  pid: number;
  /** True when this run composed the services itself. */
  own: boolean;
  dataDir: string;
  /** A bridge call, validated and performed as one from the studio's page; a failure throws OwnerCallError. */
  call<C extends CallChannel>(
    channel: C,
    ...args: Parameters<StudioApi[C]>
  ): Promise<Awaited<ReturnType<StudioApi[C]>>>;
  /** Follows one event of the studio; answers the unsubscribe. */
  on<E extends EventChannel>(event: E, handler: (payload: EventPayloads[E]) => void): () => void;
  /**
   * Hands over a local file this command's user named (an absolute path): checked, then taken in as the
   * page's chosen files are (probed, granted); later calls use the answered reference for it.
   */
  nameFile(path: string, use: 'media'): Promise<ChosenMedia>;
  nameFile(path: string, use: 'sheet'): Promise<ChosenSheet>;
  /**
   * Makes sure these links can be fetched by whoever performs the calls: a link of the data folder's
   * built-in sandbox opens only while it runs, so a run with its own services starts it; an owner runs its own.
   */
  prepare(links: readonly (string | undefined)[]): Promise<void>;
  /** How this run's own services make a queued run's rows as a worker (absent through an owner); see Domains. */
  rowMakers?(folder: string, bucket?: string): Promise<RowMaker[]>;
  /** The account this studio serves, as a queued run records it (workers compare it with the run's). */
  rowAccount?(runId: string): Promise<RunAccount | null>;
  /** Why the pictures this studio renders for a row could not be fetched by the service at `origin` (null: they can). */
  rowMedia?(origin: string): Promise<string | null>;
  /** Rejects when the studio performing the calls is gone (an owner quit); what waits on events races it. */
  lost: Promise<never>;
  close(): Promise<void>;
}

/** A local file a command line named, as an absolute path; null for an http(s) link. */
export function localFileOf(value: string, cwd: string): string | null {
  if (/^https?:\/\//i.test(value)) return null;
  return resolve(cwd, value.startsWith('file:') ? fileURLToPath(value) : value);
}

/**
 * A medium as the studio may use it: a link as given (made reachable, see prepare); a local file,
 * resolved against the caller's folder, named to the studio, which checks it and answers its reference.
 * The same file named twice (--video and --audio of one clip) is handed over once. A file the studio
 * refuses (not a regular file, too large, not media) refuses the command: nothing was sent. `name` says
 * which flag gave it.
 */
export function mediaNamer(studio: StudioLink, cwd: string): (value: string, name: string) => Promise<string> {
  const named = new Map<string, Promise<string>>();
  return async (value, name) => {
    const path = localFileOf(value, cwd);
    if (path === null) {
      await studio.prepare([value]);
      return value;
    }
    const known = named.get(path);
    if (known) return known;
    const reference = studio.nameFile(path, 'media').then(
      (chosen) => chosen.url,
      (error: unknown) => {
        if (error instanceof OwnerCallError && error.code !== 'not-served')
          throw new RefusedError(`Not sent: ${name} ${value}: ${error.message}`);
        throw error;
      },
    );
    named.set(path, reference);
    return reference;
  };
}

/** The calls of this run's own composed services, answered as the owner channel answers them. */
export function ownLink(
  composed: ComposedHost,
  options: { dataDir: string; isSandboxLink(link: string): boolean; close(): Promise<void> },
): StudioLink {
  return {
    kind: 'command line',
    pid: process.pid,
    own: true,
    dataDir: options.dataDir,
    rowMakers: (folder, bucket) => composed.domains.rowMakers(folder, bucket),
    rowAccount: (runId) => composed.domains.rowAccount(runId),
    rowMedia: (origin) => composed.domains.rowMedia(origin),
    async call(channel, ...args) {
      const outcome = await composed.dispatch(channel, args);
      if (!outcome.ok) throw new OwnerCallError(outcome.error.message, outcome.error.code);
      return outcome.value as never;
    },
    on(event, handler) {
      return composed.subscribe((name, payload) => {
        if ((name as string) === event) handler(payload as never);
      });
    },
    nameFile: ((path: string, use: NamedFileUse) =>
      takeNamedFile(composed.domains, path, use).catch((error: unknown) => {
        // Refused as the owner channel refuses a named file: its message and code.
        const failure = toFailure(error, (text) => composed.redactor.text(text));
        throw new OwnerCallError(failure.message, failure.code);
      })) as StudioLink['nameFile'],
    async prepare(links) {
      if (links.some((link) => link !== undefined && options.isSandboxLink(link))) await composed.base.sandbox();
    },
    lost: new Promise<never>(() => undefined),
    close: options.close,
  };
}

/** The calls of the studio that owns the folder, over its owner channel; its events as this command asks for them. */
export function ownerLink(owner: OwnerLink, dataDir: string): StudioLink {
  const handlers = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const listen = () =>
    owner.listen([...handlers.keys()], (event, payload) => {
      for (const handler of [...(handlers.get(event) ?? [])]) handler(payload);
    });
  return {
    kind: owner.kind,
    pid: owner.pid,
    own: false,
    dataDir,
    call: owner.call,
    on(event, handler) {
      let set = handlers.get(event);
      if (!set) {
        set = new Set();
        handlers.set(event, set);
        // The owner replaces its list of this connection's events: sent before any call that follows.
        listen();
      }
      set.add(handler as (payload: unknown) => void);
      return () => set.delete(handler as (payload: unknown) => void);
    },
    nameFile: owner.nameFile,
    prepare: async () => undefined,
    lost: owner.lost,
    close: async () => owner.close(),
  };
}
