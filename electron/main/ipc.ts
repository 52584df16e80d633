import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { callChannels, type BridgeOutcome, type CallChannel } from '../common/bridge';
import type { Dispatch } from '../services/host/dispatcher';
import { isAppUrl, type AppLocation } from './app-location';

/** A call is answered only when it comes from the main frame of the studio page. */
export function isTrustedSender(frame: Pick<WebFrameMain, 'url' | 'parent'> | null | undefined, app: AppLocation): boolean {
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
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, dispatch: Dispatch, app: AppLocation): { channels: CallChannel[]; dispose(): void } {
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
    },
  };
}
