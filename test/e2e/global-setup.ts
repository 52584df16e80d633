// Vitest globalSetup of the e2e project: builds the renderer when it is stale, starts ONE web host on
// a free port with a temporary data folder and a clean environment (no real credentials), and provides
// its full address (with the access token) to every e2e test as inject('studioUrl').
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureRendererBuilt } from '../../electron/web/build-renderer';
import { startWebHost, type RunningWebHost } from '../../electron/web/web-host';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port>/?token=<token> of the web host under test. */
    studioUrl: string;
    /** The web host's data folder (records, logs) for tests that inspect what was written. */
    studioDataDir: string;
  }
}

const root = join(import.meta.dirname, '..', '..');
let host: RunningWebHost | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  await ensureRendererBuilt(root);
  dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-'));
  host = await startWebHost({ root, dataDir, port: 0, env: { PATH: process.env.PATH }, skipBuild: true });
  project.provide('studioUrl', host.url);
  project.provide('studioDataDir', dataDir);
}

export async function teardown(): Promise<void> {
  await host?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
