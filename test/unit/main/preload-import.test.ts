import { describe, expect, it, vi } from 'vitest';
import { IMPORT_DROPPED_CHANNEL, IMPORT_SHEET_CHANNEL } from '@common/bridge';

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: {},
  webUtils: { getPathForFile: () => '' },
}));
const { buildStudioApi } = await import('../../../electron/preload/index');
const { registerIpc } = await import('../../../electron/main/ipc');
const { appLocation } = await import('../../../electron/main/app-location');

const file = (name: string) => new File(['x'], name);

describe('dropped files in the desktop app', () => {
  it('the preload sends only the path Electron knows for a real file, never one the page made up', async () => {
    const ipc = { invoke: vi.fn(async () => ({ ok: true, value: 'granted' })), on: vi.fn(), removeListener: vi.fn() };
    const paths: Record<string, string> = { 'logo.png': '/home/me/logo.png' };
    const api = buildStudioApi(ipc, (f) => paths[f.name] ?? '');
    expect(await api.importFile(file('logo.png'))).toEqual({ ok: true, value: 'granted' });
    expect(ipc.invoke).toHaveBeenCalledWith(IMPORT_DROPPED_CHANNEL, '/home/me/logo.png');
    expect(await api.importFile(file('/etc/shadow'))).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
    expect(ipc.invoke).toHaveBeenCalledTimes(1);
  });

  it('the main process grants a dropped path only for the studio frame and only an absolute one', async () => {
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
    const ipcMain = { handle: (channel: string, fn: never) => handlers.set(channel, fn), removeHandler: vi.fn() };
    const importPath = vi.fn(async (path: string) => ({ url: `file://${path}`, name: 'logo.png', info: {} as never }));
    const app = appLocation('/app');
    registerIpc(ipcMain as never, vi.fn() as never, app, importPath);
    const handler = handlers.get(IMPORT_DROPPED_CHANNEL)!;
    const studioFrame = { senderFrame: { url: 'app://studio/', parent: null } };
    const foreignFrame = { senderFrame: { url: 'https://evil.example/', parent: null } };
    expect(await handler(foreignFrame, '/home/me/logo.png')).toMatchObject({
      ok: false,
      error: { code: 'untrusted-sender' },
    });
    expect(await handler(studioFrame, 'relative/logo.png')).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    });
    expect(await handler(studioFrame, '/home/me/logo.png')).toMatchObject({
      ok: true,
      value: { url: 'file:///home/me/logo.png' },
    });
    expect(importPath).toHaveBeenCalledTimes(1);
  });

  it("a spreadsheet picked for a batch goes the same way on its own channel, and the reader's refusal reaches the page", async () => {
    const ipc = { invoke: vi.fn(async () => ({ ok: true, value: 'sheet' })), on: vi.fn(), removeListener: vi.fn() };
    const api = buildStudioApi(ipc, (f) => (f.name === 'spots.xlsx' ? '/home/me/spots.xlsx' : ''));
    await api.importSheet(file('spots.xlsx'));
    expect(ipc.invoke).toHaveBeenCalledWith(IMPORT_SHEET_CHANNEL, '/home/me/spots.xlsx');
    expect(await api.importSheet(file('made-up.csv'))).toMatchObject({ ok: false, error: { code: 'not-allowed' } });

    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
    const ipcMain = { handle: (channel: string, fn: never) => handlers.set(channel, fn), removeHandler: vi.fn() };
    const refusal = Object.assign(new Error('This is an MP3 sound, not a spreadsheet'), { code: 'sheet-not-a-table' });
    registerIpc(
      ipcMain as never,
      vi.fn() as never,
      appLocation('/app'),
      vi.fn(),
      vi.fn(async () => Promise.reject(refusal)),
    );
    const studioFrame = { senderFrame: { url: 'app://studio/', parent: null } };
    expect(await handlers.get(IMPORT_SHEET_CHANNEL)!(studioFrame, '/home/me/song.csv')).toEqual({
      ok: false,
      error: { message: 'This is an MP3 sound, not a spreadsheet', code: 'sheet-not-a-table' },
    });
    expect(
      await handlers.get(IMPORT_SHEET_CHANNEL)!(
        { senderFrame: { url: 'https://evil.example/', parent: null } },
        '/x.csv',
      ),
    ).toMatchObject({ error: { code: 'untrusted-sender' } });
  });
});
