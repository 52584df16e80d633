import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ ipcMain: { handle: vi.fn(), removeHandler: vi.fn() } }));

import { ipcMain } from 'electron';
import { callChannels } from '@common/bridge';
import { appLocation } from '../../../electron/main/app-location';
import { isTrustedSender, registerIpc } from '../../../electron/main/ipc';

const app = appLocation('/opt/studio/out/renderer');
const page = 'app://studio/#/editor';

describe('IPC registration', () => {
  it('registers exactly one handler per bridge call channel and removes them again', () => {
    const registration = registerIpc(ipcMain, async () => ({ ok: true, value: null }), app);
    const registered = vi.mocked(ipcMain.handle).mock.calls.map(([channel]) => channel);
    expect([...registered].sort()).toEqual([...callChannels].sort());
    expect(registration.channels.sort()).toEqual([...callChannels].sort());
    registration.dispose();
    expect(
      vi
        .mocked(ipcMain.removeHandler)
        .mock.calls.map(([c]) => c)
        .sort(),
    ).toEqual([...callChannels].sort());
  });

  it('answers only the studio main frame, and passes the raw arguments to the dispatcher', async () => {
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
    const dispatch = vi.fn(async () => ({ ok: true as const, value: 'done' }));
    registerIpc(
      { handle: (c: string, h: never) => handlers.set(c, h), removeHandler: () => undefined } as never,
      dispatch,
      app,
    );
    const handler = handlers.get('settings.update')!;

    await expect(handler({ senderFrame: { url: page, parent: null } }, { notifications: false })).resolves.toEqual({
      ok: true,
      value: 'done',
    });
    expect(dispatch).toHaveBeenCalledWith('settings.update', [{ notifications: false }]);

    dispatch.mockClear();
    for (const senderFrame of [
      null,
      { url: 'https://evil.example/', parent: null },
      { url: 'file:///opt/studio/out/renderer/index.html', parent: null },
      { url: 'app://other/', parent: null },
      { url: page, parent: { url: page } },
    ]) {
      await expect(handler({ senderFrame }, {})).resolves.toMatchObject({
        ok: false,
        error: { code: 'untrusted-sender' },
      });
    }
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('treats a missing or foreign frame as untrusted', () => {
    expect(isTrustedSender(undefined, app)).toBe(false);
    expect(isTrustedSender({ url: page, parent: null }, app)).toBe(true);
  });
});
