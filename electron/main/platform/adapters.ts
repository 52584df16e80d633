import { BrowserWindow, Notification, dialog, shell } from 'electron';
import type { PlatformAdapters } from '../../services/host/types';
import { checkExternalUrl } from '../../services/system/external-url';

export interface AdapterDeps {
  window: () => BrowserWindow | null;
  notificationsEnabled: () => boolean;
}

/** Desktop integration for the services: notifications, taskbar progress, native dialogs, the shell. */
export function createPlatformAdapters(deps: AdapterDeps): PlatformAdapters {
  const parent = (): BrowserWindow | undefined => deps.window() ?? undefined;
  const withParent = async <T>(open: (win: BrowserWindow | undefined) => Promise<T>): Promise<T> => open(parent());
  return {
    notify(title, body) {
      const win = deps.window();
      // Only when the user is elsewhere: inside the window the page shows its own notice.
      if (!deps.notificationsEnabled() || !Notification.isSupported() || win?.isFocused()) return;
      const note = new Notification({ title, body, silent: false });
      note.on('click', () => {
        win?.show();
        win?.focus();
      });
      note.show();
    },
    setProgress(fraction) {
      deps.window()?.setProgressBar(fraction === null ? -1 : Math.min(1, Math.max(0, fraction)));
    },
    async openPath(path) {
      const error = await shell.openPath(path);
      if (error) throw new Error(`Could not open ${path}: ${error}`);
    },
    async openExternal(url) {
      await shell.openExternal(checkExternalUrl(url).href);
    },
    chooseSavePath: ({ title, defaultName, extensions }) =>
      withParent(async (win) => {
        const options = {
          title,
          defaultPath: defaultName,
          filters: [{ name: extensions.join(', ').toUpperCase(), extensions }],
        };
        const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
        return result.canceled || !result.filePath ? null : result.filePath;
      }),
    chooseOpenPath: ({ title, extensions }) =>
      withParent(async (win) => {
        const options = {
          title,
          properties: ['openFile' as const],
          filters: [{ name: extensions.join(', ').toUpperCase(), extensions }],
        };
        const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      }),
    chooseFolder: ({ title }) =>
      withParent(async (win) => {
        const options = { title, properties: ['openDirectory' as const, 'createDirectory' as const] };
        const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      }),
  };
}
