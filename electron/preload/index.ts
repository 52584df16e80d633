// Builds window.studio from the bridge channel lists and nothing else: one invoke per call channel,
// one subscribe per event channel. The page never sees ipcRenderer itself.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import {
  IMPORT_DROPPED_CHANNEL,
  IMPORT_SHEET_CHANNEL,
  callChannels,
  eventChannels,
  type StudioWindowApi,
} from '../common/bridge';

export function buildStudioApi(
  ipc: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>,
  pathOf: (file: File) => string = (file) => webUtils.getPathForFile(file),
): StudioWindowApi {
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
  // Only a file the user dropped or picked has a path; a File the page made up has none.
  const byPath = (channel: string) => async (file: File) => {
    const path = pathOf(file);
    if (!path)
      return { ok: false, error: { message: `${file.name} is not a file on this computer`, code: 'not-allowed' } };
    return ipc.invoke(channel, path);
  };
  const importFile = byPath(IMPORT_DROPPED_CHANNEL) as StudioWindowApi['importFile'];
  const importSheet = byPath(IMPORT_SHEET_CHANNEL) as StudioWindowApi['importSheet'];
  return { calls, events, importFile, importSheet };
}

contextBridge.exposeInMainWorld('studio', buildStudioApi(ipcRenderer));
