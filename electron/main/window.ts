import { BrowserWindow, dialog, screen } from 'electron';
import type { RecordStore } from '../services/host/types';
import { isAppUrl, pageUrl, type AppLocation } from './app-location';
import { restoreBounds, type WindowState } from './window-state';

export interface MainWindowOptions {
  app: AppLocation;
  preloadPath: string;
  state: RecordStore<WindowState>;
  title: string;
}

/** The security checklist's webPreferences, in one place so a test can read them. */
export function secureWebPreferences(preloadPath: string): Electron.WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: true,
  };
}

/** Creates the one main window at its remembered place and size, and remembers them when they change. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const saved = options.state.get();
  const bounds = restoreBounds(
    saved,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...bounds,
    minWidth: 960,
    minHeight: 600,
    title: options.title,
    show: false,
    backgroundColor: '#0e1016',
    autoHideMenuBar: false,
    webPreferences: secureWebPreferences(options.preloadPath),
  });
  if (saved.maximized) win.maximize();

  let timer: NodeJS.Timeout | undefined;
  const remember = (): void => {
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return;
    const maximized = win.isMaximized();
    const b = maximized ? options.state.get() : { ...win.getBounds() };
    options.state.set({ x: b.x, y: b.y, width: b.width, height: b.height, maximized });
  };
  const rememberSoon = (): void => {
    clearTimeout(timer);
    timer = setTimeout(remember, 400);
  };
  win.on('resize', rememberSoon);
  win.on('move', rememberSoon);
  win.on('maximize', remember);
  win.on('unmaximize', remember);
  win.on('close', () => {
    clearTimeout(timer);
    remember();
  });
  win.once('ready-to-show', () => win.show());
  // The page refuses to unload while a project has unsaved changes; the user decides here (closing
  // the window and quitting both pass through this).
  win.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'warning',
      buttons: ['Stay', 'Close without saving'],
      defaultId: 0,
      cancelId: 0,
      title: 'Unsaved changes',
      message: 'The open project has unsaved changes.',
      detail: 'Stay and save them with File → Save, or close without saving.',
    });
    if (choice === 1) event.preventDefault();
  });

  void win.loadURL(pageUrl(options.app));
  // A renderer that reloads itself onto a foreign address is stopped by the navigation guard; this
  // only double-checks the first load.
  win.webContents.once('did-finish-load', () => {
    if (!isAppUrl(win.webContents.getURL(), options.app)) win.destroy();
  });
  return win;
}
