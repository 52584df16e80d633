// Vitest globalSetup of the e2e project: builds the renderer once, when it is missing or older than its
// sources, and starts the one Chromium of the run. Test files connect to that Chromium (browser.ts) and
// open a fresh context per studio, so cookies and storage never pass between tests, while the browser's
// start-up is paid once. Each test file still gets its own web host on a free port (file-host.ts).
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { ensureRendererBuilt } from '../../electron/web/build-renderer';
import { CHROMIUM_FLAGS, chromiumPath } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the run's Chromium (playwright's browser server). */
    chromiumEndpoint: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  await ensureRendererBuilt(join(import.meta.dirname, '..', '..'));
  const server = await chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
