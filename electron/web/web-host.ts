import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInSandboxStarter, type BuiltInSandboxOptions } from '../emulator/built-in';
import { EnvVault } from '../services/connections/env-vault';
import { startHost, type StartingHost } from '../services/host/starting-host';
import { importProgressLines, stageLines } from '../services/records/import-progress';
import { createConfStoreFactory } from '../services/store/conf-store';
import { lockDataFolder } from '../services/host/data-folder-lock';
import { openOwnerChannel, type OwnerChannel } from '../services/host/owner-channel';
import { newAccessToken } from './access';
import { ensureRendererBuilt } from './build-renderer';
import { startWebServer, type WebServer } from './server';

export interface WebHostOptions {
  /** The repository root (where package.json and out/ are). */
  root: string;
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  env?: Record<string, string | undefined>;
  /** Fixed token (tests); default: a fresh random one. */
  token?: string;
  /** Skips the staleness check (the caller built the renderer). */
  skipBuild?: boolean;
  onBuild?: () => void;
  /** Where warnings and errors are echoed (the terminal); lines are already redacted. */
  echo?: (line: string) => void;
  /** Settings of the built-in sandbox (tests shorten its jobs). */
  sandbox?: BuiltInSandboxOptions;
}

export interface RunningWebHost {
  url: string;
  port: number;
  token: string;
  /** The host's services; their records may still be being taken in (see `ready`). */
  services: StartingHost;
  /** Resolves once the records are open and `studio` commands can reach this host; rejects if they cannot be. */
  ready: Promise<void>;
  server: WebServer;
  close(): Promise<void>;
}

function appVersion(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/**
 * The studio in a browser: the same services as the desktop app (startHost), the environment's
 * credentials (STUDIO_API_KEY or STUDIO_CLIENT_ID + STUDIO_CLIENT_SECRET), the sandbox on first use,
 * and the renderer plus bridge on 127.0.0.1.
 */
export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  const env = options.env ?? process.env;
  if (!options.skipBuild) await ensureRendererBuilt(options.root, { onBuild: options.onBuild });

  mkdirSync(options.dataDir, { recursive: true });
  // One process owns a data folder at a time; a second host says who holds it and stops here.
  const lock = lockDataFolder(options.dataDir, 'web host');
  // The page is served at once and shows how the start goes while the records are prepared
  // (the first start after an update takes old records in, and a schema step may build indexes).
  const services = startHost({
    host: 'web',
    appVersion: appVersion(options.root),
    dataDir: options.dataDir,
    createVault: () => new EnvVault(env),
    platform: {},
    createStoreFactory: createConfStoreFactory,
    // A storage declared by STUDIO_S3_* in the host's environment (the one it was given).
    env,
    knownSecrets: [env.STUDIO_API_KEY, env.STUDIO_CLIENT_SECRET, env.STUDIO_S3_SECRET_ACCESS_KEY],
    echoLog: (line) => {
      if (/"level":"(warn|error)"/.test(line)) options.echo?.(line);
    },
    startSandbox: builtInSandboxStarter(options.dataDir, options.sandbox),
    // A schema step, the indexes' build or the other old records' import takes a while too: the terminal says which.
    onStage: stageLines((line) => options.echo?.(line)),
    // The first start after the update takes the old job journal in: a large one takes a while.
    onImport: importProgressLines((line) => options.echo?.(line)),
  });

  const token = options.token ?? newAccessToken();
  services.redactor.register(token);
  let server: WebServer;
  try {
    server = await startWebServer({
      services,
      rendererDir: join(options.root, 'out', 'renderer'),
      token,
      port: options.port,
    });
  } catch (error) {
    await services.dispose();
    lock.release();
    throw error;
  }
  let owner: OwnerChannel;
  try {
    // `studio` commands run beside the page through this host, so their jobs show in its Library. The
    // channel opens before the records are (a command's calls wait for them, as the page's do), so a
    // command started as soon as the host gives its address reaches it rather than being refused.
    owner = await openOwnerChannel({
      dataDir: options.dataDir,
      kind: 'web host',
      dispatch: services.dispatch,
      subscribe: services.subscribe,
      files: services.domains,
      log: services.base.log,
    });
  } catch (error) {
    await server.close();
    await services.dispose();
    lock.release();
    throw error;
  }
  services.base.log.info('web host listening', { port: server.port });
  const ready = services.ready.then(() => undefined);
  ready.catch(() => undefined); // Its failure is logged by the host and shown on the page.
  services.warmUp();

  return {
    url: server.url,
    port: server.port,
    token,
    services,
    ready,
    server,
    async close() {
      await owner.close().catch(() => undefined);
      await server.close();
      await services.dispose();
      lock.release();
    },
  };
}
