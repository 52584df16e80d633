import { dialog } from 'electron';
import { DataFolderBusyError, lockDataFolder, type HeldLock } from '../services/host/data-folder-lock';

/**
 * Takes the data folder for the desktop app, the same lock the web host takes (both default to the same
 * folder, and two processes on one folder lose settings and records). When another live process holds
 * it, says which in a dialog and answers null: the app then quits without touching the folder.
 */
export function claimDataFolder(dataDir: string): HeldLock | null {
  try {
    return lockDataFolder(dataDir, 'desktop app');
  } catch (error) {
    if (!(error instanceof DataFolderBusyError)) throw error;
    dialog.showErrorBox('Avatar Studio is already using this data folder', error.message);
    return null;
  }
}
