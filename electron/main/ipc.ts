import { isAbsolute } from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import {
  IMPORT_DROPPED_CHANNEL,
  IMPORT_SHEET_CHANNEL,
  callChannels,
  type BridgeOutcome,
  type CallChannel,
  type ChosenMedia,
  type ChosenSheet,
} from '../common/bridge';
import type { Dispatch } from '../services/host/dispatcher';
import { isAppUrl, type AppLocation } from './app-location';

/** A call is answered only when it comes from the main frame of the studio page. */
export function isTrustedSender(
  frame: Pick<WebFrameMain, 'url' | 'parent'> | null | undefined,
  app: AppLocation,
): boolean {
  return Boolean(frame) && frame!.parent === null && isAppUrl(frame!.url, app);
}

const UNTRUSTED: BridgeOutcome = {
  ok: false,
  error: { message: 'Refused: the call did not come from the studio window', code: 'untrusted-sender' },
};

/**
 * One ipcMain.handle per bridge call channel, derived from the channel list. Each checks the sender
 * frame, then hands the raw arguments to the dispatcher, which validates them.
 */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatch: Dispatch,
  app: AppLocation,
  importPath?: (path: string) => Promise<ChosenMedia>,
  importSheetPath?: (path: string) => Promise<ChosenSheet>,
): { channels: CallChannel[]; dispose(): void } {
  // Registered only where a host can take files in by path (the desktop app passes the importers).
  const byPath = (channel: string, take: (path: string) => Promise<unknown>, code: string) =>
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, path: unknown): Promise<BridgeOutcome> => {
      if (!isTrustedSender(event.senderFrame, app)) return UNTRUSTED;
      if (typeof path !== 'string' || !isAbsolute(path) || path.length > 4096) {
        return { ok: false, error: { message: 'Refused: not a dropped file', code: 'invalid-arguments' } };
      }
      try {
        return { ok: true, value: await take(path) };
      } catch (error) {
        const own = (error as { code?: unknown }).code;
        return { ok: false, error: { message: (error as Error).message, code: typeof own === 'string' ? own : code } };
      }
    });
  if (importPath) byPath(IMPORT_DROPPED_CHANNEL, importPath, 'not-media');
  if (importSheetPath) byPath(IMPORT_SHEET_CHANNEL, importSheetPath, 'sheet-unreadable');
  for (const channel of callChannels) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      if (!isTrustedSender(event.senderFrame, app)) return UNTRUSTED;
      return dispatch(channel, args);
    });
  }
  return {
    channels: [...callChannels],
    dispose() {
      for (const channel of callChannels) ipcMain.removeHandler(channel);
      if (importPath) ipcMain.removeHandler(IMPORT_DROPPED_CHANNEL);
      if (importSheetPath) ipcMain.removeHandler(IMPORT_SHEET_CHANNEL);
    },
  };
}
