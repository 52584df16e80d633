import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  const shown: { title: string; body: string }[] = [];
  class Notification {
    static isSupported = () => true;
    constructor(private readonly options: { title: string; body: string }) {}
    on() {}
    show() {
      shown.push(this.options);
    }
  }
  return {
    shown,
    Notification,
    shell: { openExternal: vi.fn(async () => undefined), openPath: vi.fn(async () => '') },
    dialog: { showSaveDialog: vi.fn(), showOpenDialog: vi.fn() },
    BrowserWindow: class {},
  };
});
vi.mock('electron', () => electron);

import { createPlatformAdapters } from '../../../electron/main/platform/adapters';

function fakeWindow(focused: boolean) {
  return { isFocused: () => focused, setProgressBar: vi.fn(), show: vi.fn(), focus: vi.fn() };
}

describe('desktop platform adapters', () => {
  beforeEach(() => {
    electron.shown.length = 0;
    vi.clearAllMocks();
  });

  it('notifies only when enabled and the window is not in front', () => {
    let enabled = true;
    let win = fakeWindow(false);
    const adapters = createPlatformAdapters({ window: () => win as never, notificationsEnabled: () => enabled });
    adapters.notify!('Render finished', 'intro.mp4');
    win = fakeWindow(true);
    adapters.notify!('Hidden', 'focused');
    win = fakeWindow(false);
    enabled = false;
    adapters.notify!('Hidden', 'disabled');
    expect(electron.shown).toEqual([{ title: 'Render finished', body: 'intro.mp4', silent: false }]);
  });

  it('clamps taskbar progress and clears it with null', () => {
    const win = fakeWindow(false);
    const adapters = createPlatformAdapters({ window: () => win as never, notificationsEnabled: () => true });
    adapters.setProgress!(1.7);
    adapters.setProgress!(null);
    expect(win.setProgressBar.mock.calls).toEqual([[1], [-1]]);
  });

  it('opens only http(s) links externally and reports a path that cannot be opened', async () => {
    const adapters = createPlatformAdapters({ window: () => null, notificationsEnabled: () => true });
    await adapters.openExternal!('https://example.com/help');
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.com/help');
    await expect(adapters.openExternal!('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(adapters.openExternal!('smb://server/share')).rejects.toThrow(/not smb/);
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);
    electron.shell.openPath.mockResolvedValueOnce('No application is associated');
    await expect(adapters.openPath!('/tmp/x.mp4')).rejects.toThrow(
      'Could not open /tmp/x.mp4: No application is associated',
    );
  });
});
