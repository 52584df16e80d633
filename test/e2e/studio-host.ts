// The web host an e2e test file runs against. file-host.ts starts one per test file, with a fresh data
// folder and a clean environment (no real credentials), so one file's jobs, settings and projects never
// leak into another's. Tests reach it through browser.ts (openStudio, studioUrl, studioDataDir).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuiltInSandboxOptions } from '../../electron/emulator/built-in';
import { startWebHost, type RunningWebHost } from '../../electron/web/web-host';

const root = join(import.meta.dirname, '..', '..');
let current: { host: RunningWebHost; dataDir: string } | undefined;

/**
 * The sandbox of an e2e host ends a job in a second rather than four: tests wait for jobs to end, and
 * none needs them slow (a test that must see a job in flight holds it, as avatars.test.ts does).
 */
export const E2E_SANDBOX: BuiltInSandboxOptions = { jobSeconds: 1 };

export async function startFileHost(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-'));
  // global-setup.ts built the renderer once for the whole run.
  const host = await startWebHost({
    root,
    dataDir,
    port: 0,
    env: { PATH: process.env.PATH },
    skipBuild: true,
    sandbox: E2E_SANDBOX,
  });
  current = { host, dataDir };
}

export async function stopFileHost(): Promise<void> {
  const stopping = current;
  current = undefined;
  if (!stopping) return;
  await stopping.host.close();
  rmSync(stopping.dataDir, { recursive: true, force: true });
}

export function fileHost(): { host: RunningWebHost; dataDir: string } {
  if (!current) throw new Error('No web host for this test file: test/e2e/file-host.ts must be in the e2e setupFiles');
  return current;
}
