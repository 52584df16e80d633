import { mkdirSync } from 'node:fs';
import type { Notice } from '../common/bridge';
import { SANDBOX_CONNECTION_ID } from '../common/bridge/connections';
import type { RunningEmulator } from '../emulator';
import { isBuiltInSandboxLink, reachRunningSandbox, startBuiltInSandbox } from '../emulator/built-in';
import { ServiceClient } from '../services/client/service-client';
import { ServiceError } from '../services/client/errors';
import type { ConnectionManager } from '../services/connections/connection-manager';
import { EnvVault, credentialsFromEnv } from '../services/connections/env-vault';
import { serviceAddressProblem } from '../common/net/address-rules';
import { defaultDataDir } from '../services/host/data-dir';
import { DataFolderBusyError, lockDataFolder, type HeldLock } from '../services/host/data-folder-lock';
import type { Logger } from '../services/host/types';
import { createEngineServices } from '../services/host/engine-services';
import type { EngineConnection, EngineConnections } from '../services/jobs/engine';
import { createConfStoreFactory } from '../services/store/conf-store';
import { createStorageServices } from '../services/storage/storage-services';
import { storageFromEnv } from '../services/storage/storage-records';
import { flag, UsageError, type CliIo, type ParsedArgs } from './command';
import type { CliHost } from './cli-host-types';
import { serveFolder } from './cli-owner';

function quietLogger(io: CliIo, verbose: boolean): Logger {
  const line = (level: string) => (message: string) => {
    if (verbose || level === 'error') io.err(`[${level}] ${message}`);
  };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/**
 * What a command does with the data folder. One that writes (creates jobs, saves records) takes the
 * folder's lock like the app and the web host do, and does not run while another studio holds it. One
 * that only reads runs beside a running studio, read-only, through that studio's sandbox.
 */
export type FolderAccess = 'reads' | 'writes';

function claimFolder(dataDir: string, access: FolderAccess): HeldLock | null {
  mkdirSync(dataDir, { recursive: true });
  try {
    return lockDataFolder(dataDir, 'command line');
  } catch (error) {
    if (!(error instanceof DataFolderBusyError)) throw error;
    if (access === 'reads') return null;
    throw new Error(
      `${error.message} This command changes the data folder, so it does not run beside it; commands that only read it (jobs list, jobs show, jobs wait, models, voices list, avatars list, avatars show, faces detect, webhook decode, campaign check, campaign status) do.`,
      { cause: error },
    );
  }
}

/**
 * The CLI as a host: the same ledger and connection records as the desktop and web hosts (in the data
 * folder), credentials from the environment, and the sandbox started here when a job needs it.
 */
export function openCliHost(
  args: ParsedArgs,
  io: CliIo,
  access: FolderAccess = 'writes',
  options: { serveOthers?: boolean } = {},
): CliHost {
  const dataDir = flag(args, '--data-dir') ?? defaultDataDir(io.env);
  const log = quietLogger(io, args.flags['--verbose'] === true);
  const folder = claimFolder(dataDir, access);
  let emulator: Promise<RunningEmulator> | undefined;
  const sandbox = async () => {
    // Beside a running studio, its own sandbox answers: a second one on the same records would lose some.
    if (!folder) {
      const running = await reachRunningSandbox(dataDir);
      return { baseUrl: running.url, apiKey: running.apiKey };
    }
    emulator ??= startBuiltInSandbox(dataDir);
    const running = await emulator;
    return { baseUrl: running.url, apiKey: running.apiKey };
  };
  const warnNotice = (notice: Notice) => log.warn(`${notice.title}${notice.detail ? `: ${notice.detail}` : ''}`);
  const createStore = createConfStoreFactory(dataDir, { log, notify: warnNotice });
  const vault = new EnvVault(io.env);
  const declared = storageFromEnv(io.env);
  if (typeof declared === 'string') throw new UsageError(declared);
  const storage = createStorageServices({ createStore, vault, sandbox, fromEnv: declared });
  // The engine, connections and catalogue are built as the app's and the web host's are (the folder's
  // ledger, prices and spending limits); only the connection new work goes to is this run's choice.
  const {
    connections,
    target: chosen,
    catalogue,
    jobs: engine,
    settings,
  } = createEngineServices(
    { createStore, dataDir, log, sandbox, vault, notices: { raise: warnNotice } },
    { route: (manager) => chooseConnection(args, io, manager) },
  );
  let serving: ReturnType<typeof serveFolder> | undefined;
  const host: CliHost = {
    dataDir,
    engine,
    connections,
    target: chosen,
    storage,
    catalogue,
    createStore,
    settings,
    log,
    async sandboxServing(links) {
      if (links.some((link) => link !== undefined && isBuiltInSandboxLink(dataDir, link))) await sandbox();
    },
    async close() {
      const served = await serving?.catch((error: unknown) =>
        log.warn(`Other commands could not run through this one: ${String(error)}`),
      );
      if (served) {
        const others = served.channel.clients();
        if (others > 0)
          io.err(`Waiting for ${others} other studio command${others === 1 ? '' : 's'} running through this one…`);
        await served.channel.close({ waitForClients: true });
        await served.dispose();
      }
      engine.stop();
      await engine.flush();
      const running = await emulator?.catch(() => undefined);
      await running?.close();
      folder?.release();
    },
  };
  // While this run owns the folder, other `studio` commands run through it rather than being refused.
  if (folder && options.serveOthers) serving = serveFolder(host, io);
  return host;
}

/**
 * --base-url (with the environment's credentials) or --connection NAME send every request there;
 * without either, each job is followed through the connection it was created on.
 */
function chooseConnection(args: ParsedArgs, io: CliIo, connections: ConnectionManager): EngineConnections {
  const baseUrl = flag(args, '--base-url');
  const name = flag(args, '--connection');
  if (baseUrl && name) throw new UsageError('Give either --connection or --base-url, not both');
  if (baseUrl) {
    const problem = serviceAddressProblem(baseUrl);
    if (problem) throw new UsageError(`--base-url ${problem}`);
    const credentials = credentialsFromEnv(io.env);
    if (!credentials)
      throw new UsageError(
        '--base-url needs credentials in the environment: STUDIO_API_KEY, or STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET',
      );
    let client: ServiceClient;
    try {
      client = new ServiceClient({ baseUrl, credentials });
    } catch (error) {
      throw new UsageError(error instanceof ServiceError ? `--base-url: ${error.message}` : String(error));
    }
    const connection: EngineConnection = { id: 'cli-base-url', name: baseUrl, webhookUrl: null };
    return { active: async () => connection, client: async () => client };
  }
  if (name) {
    const id = connections.findByName(name);
    if (!id) throw new UsageError(`No connection named "${name}". Known: Sandbox${listNames(connections)}`);
    return { active: async () => connections.engineConnection(id), client: () => connections.client(id) };
  }
  return {
    active: async () => connections.engineConnection(SANDBOX_CONNECTION_ID),
    client: (id) => connections.client(id),
  };
}

function listNames(connections: ConnectionManager): string {
  const names = connections.namesForCli();
  return names.length ? `, ${names.join(', ')}` : '';
}
