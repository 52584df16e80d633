import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  class FakeWindow {
    static created: FakeWindow[] = [];
    handlers = new Map<string, () => void>();
    bounds = { x: 10, y: 20, width: 1300, height: 820 };
    loaded: string | undefined;
    maximized = false;
    webContents = { once: vi.fn(), on: vi.fn(), getURL: () => this.loaded };
    constructor(readonly options: Record<string, unknown>) {
      FakeWindow.created.push(this);
    }
    on(name: string, handler: () => void) {
      this.handlers.set(name, handler);
    }
    once(name: string, handler: () => void) {
      this.handlers.set(name, handler);
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
    maximize() {
      this.maximized = true;
    }
    isDestroyed = () => false;
    isMinimized = () => false;
    isFullScreen = () => false;
    isMaximized = () => this.maximized;
    getBounds = () => this.bounds;
  }
  return {
    BrowserWindow: FakeWindow,
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  };
});
vi.mock('electron', () => electron);

import { appLocation } from '../../../electron/main/app-location';
import { createMainWindow } from '../../../electron/main/window';
import { windowStateSpec, type WindowState } from '../../../electron/main/window-state';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';

describe('main window', () => {
  it('opens securely at the remembered bounds and remembers new ones on close', () => {
    const state = createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => undefined })(windowStateSpec);
    state.set({ x: 100, y: 50, width: 1200, height: 800, maximized: false } satisfies WindowState);
    const app = appLocation('/opt/studio/out/renderer');
    createMainWindow({ app, preloadPath: '/opt/studio/out/preload/index.cjs', state, title: 'Avatar Studio' });
    const win = electron.BrowserWindow.created.at(-1)!;
    expect(win.options).toMatchObject({
      x: 100,
      y: 50,
      width: 1200,
      height: 800,
      show: false,
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        preload: '/opt/studio/out/preload/index.cjs',
      },
    });
    expect(win.loaded).toBe('app://studio/');
    win.handlers.get('close')!();
    expect(state.get()).toEqual({ x: 10, y: 20, width: 1300, height: 820, maximized: false });
  });

  it('reopens maximized when it was closed maximized', () => {
    const state = createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => undefined })(windowStateSpec);
    state.set({ width: 1200, height: 800, maximized: true });
    createMainWindow({ app: appLocation('/x'), preloadPath: '/p.cjs', state, title: 't' });
    expect(electron.BrowserWindow.created.at(-1)!.maximized).toBe(true);
  });
});
