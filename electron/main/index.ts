// The desktop app's composition root: builds the shared services (composeHost), then the window,
// the IPC registration, the menu and the security guards around them.
import { join } from 'node:path';
import { BrowserWindow, Menu, app, ipcMain, protocol, session, shell } from 'electron';
import { builtInSandboxStarter } from '../emulator/built-in';
import { startHost } from '../services/host/starting-host';
import { importProgressLines, stageLines } from '../services/records/import-progress';
import { openOwnerChannel } from '../services/host/owner-channel';
import { appSettingsSpec } from '../services/system/settings-store';
import { appLocation, devLocation } from './app-location';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';
import { claimDataFolder } from './data-folder';
import { registerIpc } from './ipc';
import { menuTemplate } from './menu';
import { createPlatformAdapters } from './platform/adapters';
import { createElectronStoreFactory } from './platform/electron-store-factory';
import { SafeStorageVault } from './platform/safe-storage-vault';
import { PermissionPolicy, applySessionSecurity, guardContents } from './security';
import { createMainWindow } from './window';
import { windowStateSpec } from './window-state';

app.setName('Avatar Studio');
const here = import.meta.dirname;
const location = process.env.ELECTRON_RENDERER_URL
  ? devLocation(process.env.ELECTRON_RENDERER_URL)
  : appLocation(join(here, '../renderer'));
// The page loads from app://studio/, not file:// (privileges must be declared before the app is ready).
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
let mainWindow: BrowserWindow | null = null;

const openExternal = (url: string): void => void shell.openExternal(url);
app.on('web-contents-created', (_event, contents) => guardContents(contents, location, openExternal));

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  // Before anything opens a file in it: a web host on the same folder must not be raced.
  const folder = claimDataFolder(dataDir);
  if (!folder) {
    app.exit(1);
    return;
  }
  let notifications = () => true;
  // Camera and microphone: refused unless the Live face swap tab is running them (see grantMedia).
  const permissions = new PermissionPolicy();
  // The window opens at once and shows how the start goes while the records are prepared (the first
  // start after an update takes old records in, and a schema step may build indexes over every job).
  const services = startHost({
    host: 'electron',
    appVersion: app.getVersion(),
    dataDir,
    createStoreFactory: createElectronStoreFactory,
    createVault: (createStore) => new SafeStorageVault({ createStore }),
    platform: {
      ...createPlatformAdapters({ window: () => mainWindow, notificationsEnabled: () => notifications() }),
      grantMedia: (kinds) => {
        const revokes = kinds.map((kind) => permissions.grantMedia(kind));
        return () => revokes.forEach((revoke) => revoke());
      },
    },
    startSandbox: builtInSandboxStarter(dataDir),
    // Its window is served by this process: a long step of the records waits for it to show (at most 10 s).
    waitForPageMs: 10_000,
    // A schema step, the indexes' build or the other old records' import takes a while too: the terminal says which.
    onStage: stageLines((line) => process.stderr.write(`${line}\n`)),
    // The first start after the update takes the old job journal in (also in the log file).
    onImport: importProgressLines((line) => process.stderr.write(`${line}\n`)),
  });
  const settings = services.base.createStore(appSettingsSpec);
  notifications = () => settings.get().notifications;

  if (location.kind === 'app')
    protocol.handle(APP_SCHEME_PRIVILEGES.scheme, createAppProtocolHandler(location.rendererDir));
  applySessionSecurity(session.defaultSession, location, permissions);
  const ipc = registerIpc(
    ipcMain,
    services.dispatch,
    location,
    (path) => services.domains.importPath(path),
    (path) => services.domains.importSheetPath(path),
  );
  const open = (): void => {
    const win = createMainWindow({
      app: location,
      preloadPath: join(here, '../preload/index.cjs'),
      state: services.base.createStore(windowStateSpec),
      title: 'Avatar Studio',
    });
    // Events flow only once the page has loaded; notices raised before then wait in the queue that
    // the page empties with system.pendingNotices.
    let stop: (() => void) | undefined;
    win.webContents.on('did-finish-load', () => {
      stop?.();
      stop = services.subscribe((event, payload) => win.webContents.send(event, payload));
    });
    win.on('closed', () => {
      stop?.();
      mainWindow = null;
    });
    mainWindow = win;
  };
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        isMac: process.platform === 'darwin',
        appName: app.getName(),
        devTools: !app.isPackaged,
        navigate: (workspace) => services.base.emit('system.navigate', workspace),
        openDataFolder: () => void shell.openPath(dataDir),
        openLogFolder: () => void shell.openPath(join(dataDir, 'logs')),
      }),
    ),
  );
  open();
  services.warmUp();
  // `studio` commands run beside the window through this process, so their jobs show in its Library.
  // The channel opens before the records are (a command's calls wait for them, as the window's do).
  // Without it the app still works; commands beside it are then refused as the folder is in use.
  const owner = openOwnerChannel({
    dataDir,
    kind: 'desktop app',
    dispatch: services.dispatch,
    subscribe: services.subscribe,
    files: services.domains,
    log: services.base.log,
  }).catch((error: unknown) => {
    services.base.log.warn('owner channel did not open', { error });
    return null;
  });

  app.on('activate', () => mainWindow ?? open());
  app.on('window-all-closed', () => process.platform !== 'darwin' && app.quit());
  let disposed = false;
  app.on('before-quit', (event) => {
    if (disposed) return;
    event.preventDefault();
    disposed = true;
    ipc.dispose();
    void owner
      .then((channel) => channel?.close())
      .then(() => services.dispose())
      .finally(() => {
        folder.release();
        app.quit();
      });
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.whenReady().then(start, (error: unknown) => {
    console.error('Avatar Studio could not start:', error);
    app.exit(1);
  });
}
