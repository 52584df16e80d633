// The web host as its own process (`npm run web`'s start-up, through host-child.ts for the e2e sandbox's
// short jobs), for tests that stop it like a crash or a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { sharedCacheDir } from '../../electron/emulator';
import type { BuiltInSandboxOptions } from '../../electron/emulator/built-in';
import { HANG_GUARD_MS, until } from '../wait';
import { launchBrowser } from './browser';

const root = join(import.meta.dirname, '..', '..');

export interface HostProcess {
  child: ChildProcess;
  /** The address with the access token, as the host printed it. */
  url: string;
}

/** `sandbox`: settings of its built-in sandbox beside the e2e ones (host-child.ts). */
export async function startHostProcess(dataDir: string, sandbox: BuiltInSandboxOptions = {}): Promise<HostProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/e2e/host-child.ts', '--port', '0', '--data-dir', dataDir],
    {
      cwd: root,
      // Its own home (the archive's folders land in the data folder), but the run's sandbox catalogue,
      // built once by the global setup: a host that built its own there was killed mid-build by these
      // tests, and the ffmpeg it had started went on writing into the folder the test was removing.
      env: {
        PATH: process.env.PATH,
        HOME: dataDir,
        STUDIO_CACHE_DIR: dirname(sharedCacheDir()),
        STUDIO_E2E_SANDBOX: JSON.stringify(sandbox),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // A hang guard: a start takes a few seconds on a quiet machine (tsx compiles the host first).
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `waited ${(2 * HANG_GUARD_MS) / 1000} s for the web host on ${dataDir} to print its address, and it did not; it printed: ${output}`,
          ),
        ),
      2 * HANG_GUARD_MS,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Avatar Studio is at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`web host exited (${code}): ${output}`)));
  });
  return { child, url };
}

/** Stops the host: SIGKILL as a crash would, SIGTERM as a user quitting; resolves once it has exited. */
export async function stopHostProcess(host: HostProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (host.child.exitCode !== null) return;
  const exited = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill(signal);
  // A host frozen by freezeWhen quits only once it runs again (a running one ignores SIGCONT).
  if (signal === 'SIGTERM') host.child.kill('SIGCONT');
  await exited;
}

/**
 * Waits for a moment when `ready` holds of what the host has written (its ledger, its files), looking
 * with the host frozen (SIGSTOP) so nothing changes between the look and what the test does next; when
 * it does not hold, the host runs on (SIGCONT) until the next look. Returns with the host still frozen:
 * the caller stops it (stopHostProcess), so a test can stop a host at a moment it chose however busy
 * the machine is, rather than at whatever moment its stop happens to land.
 */
export async function freezeWhen(
  host: HostProcess,
  what: string,
  ready: () => boolean,
  guardMs = 3 * HANG_GUARD_MS,
): Promise<void> {
  await until(
    what,
    () => {
      host.child.kill('SIGSTOP');
      let holds = false;
      try {
        holds = ready();
      } finally {
        if (!holds) host.child.kill('SIGCONT');
      }
      return holds;
    },
    guardMs,
  );
}

/**
 * One test file's data folder, Chromium and a host that can be stopped and started again on that folder;
 * made before the file's tests and cleaned away after them (a host still running is killed).
 */
export interface RestartableStudio {
  readonly dataDir: string;
  readonly browser: Browser;
  /** Starts a host on the data folder (the previous one must have been stopped), its sandbox as given. */
  start(sandbox?: BuiltInSandboxOptions): Promise<HostProcess>;
  stop(signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
}

export function restartableStudio(folderPrefix: string): RestartableStudio {
  let dataDir = '';
  let browser: Browser | undefined;
  let host: HostProcess | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), folderPrefix));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    if (host) await stopHostProcess(host, 'SIGKILL');
    await browser?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });
  return {
    get dataDir() {
      return dataDir;
    },
    get browser() {
      if (!browser) throw new Error('the browser starts before the tests');
      return browser;
    },
    async start(sandbox) {
      host = await startHostProcess(dataDir, sandbox);
      return host;
    },
    async stop(signal) {
      if (host) await stopHostProcess(host, signal);
      host = undefined;
    },
  };
}
