// Vitest globalSetup of the e2e project: builds the renderer once, when it is missing or older than its
// sources. Each test file then gets its own web host on a free port (file-host.ts, studio-host.ts).
import { join } from 'node:path';
import { ensureRendererBuilt } from '../../electron/web/build-renderer';

export async function setup(): Promise<void> {
  await ensureRendererBuilt(join(import.meta.dirname, '..', '..'));
}
