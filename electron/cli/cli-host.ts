import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SANDBOX_CONNECTION_ID } from '../common/bridge/connections';
import { builtInSandboxStarter, isBuiltInSandboxLink, reachRunningSandbox } from '../emulator/built-in';
import { EnvVault } from '../services/connections/env-vault';
import { composeHost, type ComposedHost, type ComposeOptions } from '../services/host/compose';
import { defaultDataDir } from '../services/host/data-dir';
import { DataFolderBusyError, lockDataFolder, type HeldLock } from '../services/host/data-folder-lock';
import { ensureDataFolder, requireDataFolder } from '../services/host/data-folder-state';
import { openOwnerChannel, type OwnerChannel } from '../services/host/owner-channel';
import { reachOwner, type OwnerLink } from '../services/host/owner-client';
import type { Logger } from '../services/host/types';
import type { Redactor } from '../services/log/redact';
import { importProgressLines, stageLines } from '../services/records/import-progress';
import { createConfStoreFactory } from '../services/store/conf-store';
import { storageFromEnv } from '../services/storage/storage-records';
import { checkConnectionFlags, chooseConnection } from './cli-route';
import { withQueueSecret } from './queue-url';
import { serviceSandboxOr } from './service-sandbox';
import type { SharedRecords } from '../services/rows/engine/row-engine-deps';
import { RefusedError, UsageError, flag, type CliIo, type ParsedArgs } from './command';
import { ownLink, ownerLink, type StudioLink } from './studio-link';
import type { RequestLimiter } from '../services/client/limiter';

/**
 * What a command does with the data folder. One that writes (creates jobs, saves records) runs through
 * the studio that owns the folder, or owns it itself and serves other commands meanwhile; beside a
 * studio it cannot reach it is refused. One that only reads writes nothing, and also runs beside such a
 * studio, through that studio's sandbox.
 */
export type FolderAccess = 'reads' | 'writes';

export interface OpenOptions {
  /**
   * Whether the command sends new work to a connection (default true). Beside an owner, the connection
   * the command line asked for must then be the one the owner sends to; saving results or uploading files
   * sends no work, so whichever is active will do.
   */
  sendsWork?: boolean;
  /** What a `studio worker` shares with the other workers in Redis: only for a run that owns the folder. */
  shared?: SharedRecords;
  /** Where the service's requests take their turns (a worker's are shared with the other workers in Redis). */
  limiter?: RequestLimiter;
  /** A worker's callback addresses (--callback-url); none: jobs are polled. */
  callbacks?: ComposeOptions['callbacks'];
  /**
   * The command answers from the folder's own records (its jobs, its downloads): it opens only a folder
   * that already is a data folder and never creates one, so a mistyped path is named (exit 4) instead
   * of answered with an empty list from a folder made for the occasion.
   */
  needsRecords?: boolean;
}

const appVersion = (): string => {
  try {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
};

/** The command line's log sink: stderr, only errors unless --verbose; secrets replaced like the log file's. */
function stderrLog(io: CliIo, verbose: boolean, redactor: Redactor): Logger {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    if (!verbose && level !== 'error') return;
    const extra = verbose && fields ? ` ${JSON.stringify(redactor.value(fields))}` : '';
    io.err(`[${level}] ${redactor.text(message)}${extra}`);
  };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/** How the data folder was named, for a message about it. */
export function namedBy(args: ParsedArgs, io: CliIo): string {
  if (flag(args, '--data-dir') !== undefined) return 'named by --data-dir';
  return io.env.STUDIO_DATA_DIR ? 'named by STUDIO_DATA_DIR' : 'the per-user default';
}

/**
 * Takes the data folder for this run. A folder another studio holds is read beside it; a command that
 * changes it is refused, saying why: with --base-url it never goes through the studio that holds it
 * (that studio sends to its own connection, with credentials it keeps), otherwise that studio did not answer.
 */
function claimFolder(dataDir: string, access: FolderAccess, named: string, baseUrl?: string): HeldLock | null {
  ensureDataFolder(dataDir, named);
  try {
    return lockDataFolder(dataDir, 'command line');
  } catch (error) {
    if (!(error instanceof DataFolderBusyError)) throw error;
    if (access === 'reads') return null;
    const why =
      baseUrl === undefined
        ? 'This command changes the data folder, so it does not run beside it'
        : `This command names its own service (--base-url ${baseUrl}, with the credentials in its environment), which the ${error.owner.kind} does not send to, so it does not run through it: close the ${error.owner.kind}, or run the command without --base-url to run through it (it sends to its own active connection). Commands that change the data folder do not run beside it`;
    throw new Error(
      `${error.message} ${why}; commands that only read it (jobs list, jobs show, jobs wait, models, voices list, avatars list, avatars show, faces detect, webhook decode, campaign check, campaign status) do.`,
      { cause: error },
    );
  }
}

/**
 * The owner sends new work to its active connection; a command line that chose another (by default the
 * sandbox, or --connection NAME) is refused before anything is sent rather than quietly sent elsewhere.
 */
async function checkOwnerConnection(args: ParsedArgs, owner: OwnerLink): Promise<void> {
  const state = await owner.call('connections.list');
  const wanted = flag(args, '--connection') ?? 'Sandbox';
  const active = state.connections.find((c) => c.id === state.activeId);
  const matches =
    wanted.toLowerCase() === 'sandbox'
      ? state.activeId === SANDBOX_CONNECTION_ID
      : active?.name.toLowerCase() === wanted.toLowerCase();
  if (!matches) {
    const name = active?.name ?? state.activeId;
    throw new RefusedError(
      `Nothing was sent: the ${owner.kind} that has this data folder open sends new work to "${name}", not "${wanted}". ` +
        `Pass --connection "${name}" to send it there, or make "${wanted}" the active connection in the studio.`,
    );
  }
}

/**
 * Opens the studio a command talks to. When a studio (the desktop app, the web host, another command
 * line) owns the data folder, its owner channel: its own services perform the command, so its jobs are
 * in its Library at once. Otherwise this run composes the studio's services itself with composeHost, as
 * the app and the web host do, passing only what a command line differs in: credentials from the
 * environment, a log on stderr, conf records, no dialogs, the connection it chose (--connection,
 * --base-url, else the sandbox) and a storage declared by STUDIO_S3_*. While it owns the folder it
 * serves other `studio` processes with all of it over the owner channel, as the app does; beside a
 * studio it cannot reach, it only reads. --base-url brings its own credentials, which an owner does not
 * have, so it never goes through one.
 */
export async function openStudio(
  args: ParsedArgs,
  io: CliIo,
  access: FolderAccess,
  options: OpenOptions = {},
): Promise<StudioLink> {
  // From where the command was typed: a relative folder means the same to every service that opens it
  // (the sandbox's file server wants it whole).
  const dataDir = resolve(io.cwd, flag(args, '--data-dir') ?? defaultDataDir(io.env));
  const credentials = checkConnectionFlags(args, io);
  if (options.needsRecords) requireDataFolder(dataDir, namedBy(args, io));
  if (flag(args, '--base-url') === undefined) {
    const owner = await reachOwner(dataDir);
    if (owner) {
      try {
        if (options.sendsWork !== false) await checkOwnerConnection(args, owner);
      } catch (error) {
        owner.close();
        throw error;
      }
      return ownerLink(owner, dataDir);
    }
  }
  const declared = storageFromEnv(io.env);
  if (typeof declared === 'string') throw new UsageError(declared);
  const folder = claimFolder(dataDir, access, namedBy(args, io), flag(args, '--base-url'));
  let composed: ComposedHost;
  try {
    composed = composeHost({
      host: 'cli',
      appVersion: appVersion(),
      dataDir,
      createVault: () => withQueueSecret(new EnvVault(io.env), io.env),
      platform: {},
      createStoreFactory: createConfStoreFactory,
      // Beside a running studio, its own sandbox answers: a second one on the same records would lose some.
      // A --base-url that is a sandbox is the one used, so its links live as long as the service does.
      startSandbox: serviceSandboxOr(
        flag(args, '--base-url'),
        credentials,
        folder ? builtInSandboxStarter(dataDir, io.sandbox) : runningSandbox(dataDir),
      ),
      knownSecrets: [io.env.STUDIO_API_KEY, io.env.STUDIO_CLIENT_SECRET, io.env.STUDIO_S3_SECRET_ACCESS_KEY],
      log: (redactor) => stderrLog(io, args.flags['--verbose'] === true, redactor),
      route: (connections) => chooseConnection(args, io, connections),
      env: io.env,
      // A command that only reads writes nothing, even with the folder to itself: a create another
      // process is sending stays exactly as it is.
      start: access === 'writes' ? 'follow' : 'read-only',
      shared: options.shared,
      limiter: options.limiter,
      callbacks: options.callbacks,
      // The first start after the update takes the old job journal in: a large one takes a while.
      onImport: importProgressLines((line) => io.err(line)),
      // And the other old records (storage links, saved copies, campaigns and batches), as the other hosts do.
      onStage: stageLines((line) => io.err(line)),
    });
  } catch (error) {
    folder?.release();
    throw error;
  }
  // While this run owns the folder to write, other `studio` commands run through it rather than being refused.
  const serving: Promise<OwnerChannel | null> =
    folder && access === 'writes'
      ? openOwnerChannel({
          dataDir,
          kind: 'command line',
          dispatch: composed.dispatch,
          subscribe: composed.subscribe,
          files: composed.domains,
          log: composed.base.log,
        }).catch((error: unknown) => {
          composed.base.log.warn(`Other commands cannot run through this one: ${String(error)}`);
          return null;
        })
      : Promise.resolve(null);
  await serving;
  return ownLink(composed, {
    dataDir,
    isSandboxLink: (link) => isBuiltInSandboxLink(dataDir, link),
    async close() {
      const channel = await serving;
      const others = channel?.clients() ?? 0;
      if (others > 0)
        io.err(`Waiting for ${others} other studio command${others === 1 ? '' : 's'} running through this one…`);
      // This run's engine follows the other commands' jobs: they end before it stops.
      await channel?.close({ waitForClients: true });
      await composed.dispose();
      folder?.release();
    },
  });
}

/** The sandbox of the studio that holds the folder, for a run that reads beside it (it is not ours to stop). */
function runningSandbox(dataDir: string): () => Promise<{ baseUrl: string; apiKey: string; close(): Promise<void> }> {
  return async () => {
    const running = await reachRunningSandbox(dataDir);
    return { baseUrl: running.url, apiKey: running.apiKey, close: async () => undefined };
  };
}

/** Opens the studio, runs `work` with it, and closes it whatever happens. */
export async function withStudio<T>(
  args: ParsedArgs,
  io: CliIo,
  access: FolderAccess,
  work: (studio: StudioLink) => Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  const studio = await openStudio(args, io, access, options);
  try {
    return await work(studio);
  } finally {
    await studio.close();
  }
}

/** Says, unless --json, that a studio that owns the folder does the work (and which). */
export function sayWhere(studio: StudioLink, args: ParsedArgs, io: CliIo, what = 'Running', more = ''): void {
  if (studio.own || args.flags['--json'] === true) return;
  io.err(`${what} through the ${studio.kind} that has the data folder open (process ${studio.pid})${more}.`);
}

/** The name of the connection the studio sends to (with --base-url, that address). */
export async function connectionName(studio: StudioLink, args: ParsedArgs): Promise<string> {
  const baseUrl = flag(args, '--base-url');
  if (baseUrl !== undefined) return baseUrl;
  const state = await studio.call('connections.list');
  return state.connections.find((c) => c.id === state.activeId)?.name ?? state.activeId;
}
