import type { BridgeOutcome, CallsOf, PayloadsOf } from './contract';
import type { ChosenMedia } from './media';
import type { ChosenSheet } from './batches';
import { systemCalls, systemEvents } from './system';
import { settingsCalls, settingsEvents } from './settings';
import { connectionsCalls, connectionsEvents } from './connections';
import { jobsCalls, jobsEvents } from './jobs';
import { catalogueCalls, catalogueEvents } from './catalogue';
import { projectsCalls, projectsEvents } from './projects';
import { previewCalls, previewEvents } from './preview';
import { mediaCalls } from './media';
import { storageCalls, storageEvents } from './storage';
import { uploadsCalls, uploadsEvents } from './uploads';
import { downloadsCalls, downloadsEvents } from './downloads';
import { facesCalls } from './faces';
import { batchesCalls, batchesEvents } from './batches';
import { placementCalls, placementEvents } from './placement';
import { toolsCalls } from './tools';
import { avatarsCalls } from './avatars';
import { textCalls } from './text';
import { templatesCalls } from './templates';
import { musicCalls } from './music';
import { campaignsCalls, campaignsEvents } from './campaigns';
import { campaignPagesCalls } from './campaign-pages';
import { captionsBurnCalls, captionsCalls, captionsEvents } from './captions';

/**
 * Every call the renderer can make. Each domain keeps its own file; this object is the one channel
 * list from which the preload, the Electron IPC registration and the web transport are derived.
 */
export const bridgeCalls = {
  ...systemCalls,
  ...settingsCalls,
  ...connectionsCalls,
  ...jobsCalls,
  ...catalogueCalls,
  ...projectsCalls,
  ...previewCalls,
  ...mediaCalls,
  ...storageCalls,
  ...uploadsCalls,
  ...downloadsCalls,
  ...facesCalls,
  ...batchesCalls,
  ...placementCalls,
  ...toolsCalls,
  ...avatarsCalls,
  ...textCalls,
  ...templatesCalls,
  ...musicCalls,
  ...captionsCalls,
  ...campaignsCalls,
  ...campaignPagesCalls,
  ...captionsBurnCalls,
};

/** Every event a host can push to the renderer. */
export const bridgeEvents = {
  ...systemEvents,
  ...settingsEvents,
  ...connectionsEvents,
  ...jobsEvents,
  ...catalogueEvents,
  ...projectsEvents,
  ...previewEvents,
  ...storageEvents,
  ...uploadsEvents,
  ...downloadsEvents,
  ...batchesEvents,
  ...placementEvents,
  ...campaignsEvents,
  ...captionsEvents,
};

export type BridgeCalls = typeof bridgeCalls;
export type CallChannel = keyof BridgeCalls & string;
export type StudioApi = CallsOf<BridgeCalls>;
export type EventChannel = keyof typeof bridgeEvents & string;
export type EventPayloads = PayloadsOf<typeof bridgeEvents>;

export const callChannels = Object.keys(bridgeCalls) as CallChannel[];
export const eventChannels = Object.keys(bridgeEvents) as EventChannel[];

export function isCallChannel(value: unknown): value is CallChannel {
  return typeof value === 'string' && Object.hasOwn(bridgeCalls, value);
}

export * from './contract';
export * from './system';
export * from './settings';

/**
 * What the preload puts on `window.studio` (and what the web transport builds the same way): one
 * function per call channel answering with an outcome envelope, and one subscribe function per event.
 */
export interface StudioWindowApi {
  /**
   * Takes in a local file the user dropped or picked in the page: the desktop app grants the file's own
   * path (only a real file from the user has one), the web host receives its bytes.
   */
  importFile(file: File): Promise<BridgeOutcome<ChosenMedia>>;
  /** The same for a spreadsheet picked for a batch: read by the host in any encoding, or as .xlsx. */
  importSheet(file: File): Promise<BridgeOutcome<ChosenSheet>>;
  calls: {
    [C in CallChannel]: (
      ...args: Parameters<StudioApi[C]>
    ) => Promise<BridgeOutcome<Awaited<ReturnType<StudioApi[C]>>>>;
  };
  events: { [E in EventChannel]: (handler: (payload: EventPayloads[E]) => void) => () => void };
}
export * from './connections';
export * from './jobs';
export * from './batches';
export * from './placement';
export * from './catalogue';
export * from './projects';
export * from './preview';
export * from './media';
export * from './storage';
export * from './uploads';
export * from './downloads';
export * from './download-words';
export * from './tools';
export * from './avatars';
export * from './text';
export * from './templates';
export * from './music';
export * from './captions';
