import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { builtInSandboxStarter } from '../../../electron/emulator/built-in';
import type { CallChannel, StudioApi } from '../../../electron/common/bridge';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { composeHost, type ComposedHost } from '../../../electron/services/host/compose';
import { lockDataFolder } from '../../../electron/services/host/data-folder-lock';
import { openOwnerChannel, type OwnerChannel } from '../../../electron/services/host/owner-channel';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { makeImage } from '../../fixtures/composition/make-media';

export interface OwnerFixture {
  dataDir: string;
  studio: ComposedHost;
  channel: OwnerChannel;
  /** Runs a `studio` command beside the owner; `answer` is what the price question reads; `cwd` the caller's folder. */
  cli(
    args: string[],
    options?: { answer?: string; cwd?: string },
  ): Promise<{ code: number; out: string[]; err: string[] }>;
  /** A bridge call straight to the owner's dispatcher, as its page would make it. */
  call<C extends CallChannel>(
    channel: C,
    ...args: Parameters<StudioApi[C]>
  ): Promise<Awaited<ReturnType<StudioApi[C]>>>;
  close(): Promise<void>;
}

/**
 * A studio that owns a fresh data folder, built as the web host builds its own (web-host.ts) minus the
 * page: the shared domains behind the owner channel, local files taken in by its importers.
 */
export async function startOwner(options: { jobSeconds?: number; dataDir?: string } = {}): Promise<OwnerFixture> {
  // A folder given (one a command line used before) is the caller's to remove.
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'studio-owner-cli-'));
  const lock = lockDataFolder(dataDir, 'web host');
  const studio = composeHost({
    host: 'web',
    appVersion: '0.0.0',
    dataDir,
    createVault: () => new EnvVault({}),
    platform: {},
    createStoreFactory: createConfStoreFactory,
    startSandbox: builtInSandboxStarter(dataDir, { jobSeconds: options.jobSeconds ?? 0.3 }),
  });
  // The web host warms its catalogue at start (warmUp), which starts its sandbox; awaited here.
  await studio.dispatch('catalogue.voices', [{}]);
  const channel = await openOwnerChannel({
    dataDir,
    kind: 'web host',
    dispatch: studio.dispatch,
    subscribe: studio.subscribe,
    files: studio.domains,
    log: studio.base.log,
  });
  return {
    dataDir,
    studio,
    channel,
    cli(args, { answer, cwd = process.cwd() } = {}) {
      const lines = { out: [] as string[], err: [] as string[] };
      const io: CliIo = {
        out: (t) => lines.out.push(t),
        err: (t) => lines.err.push(t),
        env: {},
        cwd,
        ...(answer !== undefined && { stdin: async () => answer }),
      };
      return runCli([...args, '--data-dir', dataDir], io).then((code) => ({ code, ...lines }));
    },
    async call(channel, ...args) {
      const outcome = await studio.dispatch(channel, args);
      if (!outcome.ok) throw Object.assign(new Error(outcome.error.message), { code: outcome.error.code });
      return outcome.value as never;
    },
    async close() {
      await channel.close();
      await studio.dispose();
      lock.release();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A studio owning `here/data`, with the picture a campaign's logo column names taken in as the page takes a
 * file the user chose: what a campaign started from a spreadsheet needs before its sheet.
 */
export async function ownerWithLogo(here: string): Promise<{ owner: OwnerFixture; logo: string }> {
  const dataDir = join(here, 'data');
  mkdirSync(dataDir);
  const owner = await startOwner({ dataDir });
  const picture = makeImage(join(here, 'logo.png'), { colour: 'orange', width: 64, height: 64 });
  return { owner, logo: (await owner.studio.domains.importPath(picture)).url };
}
