// Builds window.studio from the bridge channel lists and nothing else: one invoke per call channel,
// one subscribe per event channel. The page never sees ipcRenderer itself.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { callChannels, eventChannels, type StudioWindowApi } from '../common/bridge';

export function buildStudioApi(ipc: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>): StudioWindowApi {
  const calls = Object.fromEntries(
    callChannels.map((channel) => [channel, (...args: unknown[]) => ipc.invoke(channel, ...args)]),
  ) as unknown as StudioWindowApi['calls'];
  const events = Object.fromEntries(
    eventChannels.map((event) => [
      event,
      (handler: (payload: unknown) => void) => {
        const listener = (_event: IpcRendererEvent, payload: unknown): void => handler(payload);
        ipc.on(event, listener);
        return () => {
          ipc.removeListener(event, listener);
        };
      },
    ]),
  ) as unknown as StudioWindowApi['events'];
  return { calls, events };
}

contextBridge.exposeInMainWorld('studio', buildStudioApi(ipcRenderer));
