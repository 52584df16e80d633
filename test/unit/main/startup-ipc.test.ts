import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ ipcMain: { handle: vi.fn(), removeHandler: vi.fn() } }));

import { appLocation } from '../../../electron/main/app-location';
import { registerIpc } from '../../../electron/main/ipc';
import { startHost } from '../../../electron/services/host/starting-host';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { putLine, record } from '../records/ledger-fixtures';

const app = appLocation('/opt/studio/out/renderer');
const fromWindow = { senderFrame: { url: 'app://studio/', parent: null } };

// The desktop app registers its IPC with the starting host's dispatcher before the records are open
// (electron/main/index.ts), so its window shows how the start goes: this is that wiring, Electron mocked.
describe("the desktop window's bridge while the records are prepared", () => {
  it('answers system.startup from the window at once, and a Library call once the records are open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-ipc-start-'));
    mkdirSync(join(dataDir, 'jobs'));
    const lines = Array.from({ length: 200 }, (_, i) => putLine(record(`job-${i}`, 'completed', i + 1)));
    writeFileSync(join(dataDir, 'jobs', 'ledger.jsonl'), `${lines.join('\n')}\n`);
    const services = startHost({
      host: 'electron',
      appVersion: '9.9.9',
      dataDir,
      createVault: () => new MemoryVault(),
      platform: {},
      createStoreFactory: createConfStoreFactory,
      startSandbox: vi.fn(),
    });
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
    const ipc = registerIpc(
      { handle: (c: string, h: never) => handlers.set(c, h), removeHandler: () => undefined } as never,
      services.dispatch,
      app,
    );
    const listed = handlers.get('jobs.list')!(fromWindow);
    expect(await handlers.get('system.startup')!(fromWindow)).toMatchObject({ ok: true, value: { ready: false } });
    expect(await listed).toMatchObject({ ok: true, value: expect.any(Array) });
    expect(((await listed) as { value: unknown[] }).value).toHaveLength(200);
    expect(await handlers.get('system.startup')!(fromWindow)).toMatchObject({ ok: true, value: { ready: true } });
    ipc.dispose();
    await services.dispose();
  });
});
