import { pathToFileURL } from 'node:url';
import { campaignSummary } from '../../common/bridge/campaigns';
import type { CampaignRecord } from '../../common/campaign/record';
import type { Project } from '../../common/composition/document';
import type { PlacementConvention } from '../../common/composition/placement';
import type { AvatarLinks } from '../../common/composition/avatar-links';
import type { Logger } from '../host/types';
import type { StorageServices } from '../storage/storage-services';
import { createTextPictures } from '../text/text-domain';
import type { MusicMixer } from '../media/music-mix';
import type { MediaToolkit } from '../media/toolkit';
import { StillCache } from './still-cache';
import { CampaignStills } from './campaign-stills';
import { join } from 'node:path';
import { mixSceneMusic } from '../media/music-scenes';
import { sceneVoicePart, type VoicePartDeps } from '../media/voice-parts';
import { saveResult, sendableBody, uploadLocalFiles } from './campaign-media';
import { CampaignRows } from './campaign-rows';
import type { RowEngine } from '../rows/engine/row-engine';
import type { MediaInfo } from '../../common/composition/media-info';
import type { RowJobs } from '../rows/engine/row-kind';
import type { RunStores } from '../rows/engine/run-store';
import { READ_WHOLE_BYTES, soundBytesLengthMs, soundLengthMs } from '../media/sound-length';
import { rowFiles } from './row-files';
import type { VoiceMeasure } from './row-steps';

export interface CampaignHost {
  dataDir: string;
  engine: RowJobs;
  /** The host's one row engine (batches share it, and its pacer): the host composes it, not this domain. */
  rows: RowEngine;
  /** The folder's runs (its records database), where campaigns are kept. */
  runs: RunStores;
  storage: StorageServices;
  log?: Logger;
  notify?(title: string, body: string, outcome: 'completed' | 'failed'): void;
  placement?(): Promise<PlacementConvention | undefined>;
  /** The sending connection's avatars, asked when a row's body is written (an avatar chosen from a catalogue is sent with its link there). */
  avatars?(): Promise<AvatarLinks | undefined>;
  /** Hands out a file: reference for a picture the host drew (default: its file: URL). */
  grant?(path: string): string;
  /** Uploads the local files a body names (default: every file: URL, through the host's uploader). */
  linkLocal?(value: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A scene's music mixed under its voice, as a local file reference (sendableBody's mixMusic). */
  mixMusic?(project: Project, sceneId: string): Promise<string>;
  /** A cut scene's piece of sound, as a local file reference (sendableBody's voicePart). */
  voicePart?(project: Project, reference: string): Promise<string>;
  onChange?(record: CampaignRecord): void;
  /** Checks a saved video is real media (ffprobe); throws with the reason otherwise. */
  verify?(path: string): Promise<void>;
  /**
   * Saves a row's video as `target` through the host's download queue, which records the copy (the
   * one record of copies); without it the file is fetched and verified but recorded nowhere (tests).
   */
  saveCopy?(url: string, target: string, options: { replace: boolean }): Promise<void>;
  /** A voice's length in ms from its link (voiceLengthOf, or probedVoiceLength). */
  voiceLength: VoiceMeasure;
}

/** ffprobe's length of a voice's link; a sound without one is an error (the scene cannot be fitted to it). */
export function probedVoiceLength(probe: (input: string) => Promise<MediaInfo>): (url: string) => Promise<number> {
  return async (url) => {
    const info = await probe(url);
    if (!info.hasAudio || !info.durationMs) throw new Error('it is not a sound with a length');
    return info.durationMs;
  };
}

/**
 * A voice's length, read in this process when it is a plain sound file (the service's voiceovers are),
 * asked of ffprobe otherwise, which also names what is wrong with a file that is not one. A link whose
 * file is used only here is read into memory (`smallFile`) and not kept; one wanted again, or one that
 * is not a plain sound, is read from its local copy (`localPath`, which downloads it once).
 */
export function voiceLengthOf(
  localPath: (url: string) => Promise<string>,
  probe: (path: string) => Promise<MediaInfo>,
  smallFile?: (url: string, maxBytes: number) => Promise<Uint8Array | null>,
): VoiceMeasure {
  const probed = probedVoiceLength(probe);
  return async (url, use) => {
    if (smallFile && !use?.again && /^https?:\/\//i.test(url)) {
      // A failed fetch is tried again below, through the cache, whose error names what went wrong.
      const bytes = await smallFile(url, READ_WHOLE_BYTES).catch(() => null);
      const length = await soundBytesLengthMs(bytes, url.split(/[?#]/)[0]);
      if (length !== null) return length;
    }
    const path = await localPath(url);
    return (await soundLengthMs(path)) ?? probed(path);
  };
}

/**
 * Campaigns on a host's services and its row engine: their records in the data folder, text drawn by the
 * host's rasteriser, local files uploaded by the host's uploader, results saved through .part files. The
 * host registers the engine's `jobEnded` with its reactor for 'campaign-row' jobs before the reactor starts.
 */
export function createCampaignRows(host: CampaignHost): CampaignRows {
  const pictures = createTextPictures(host.dataDir, host.grant ?? ((path) => pathToFileURL(path).href));
  const linkLocal = host.linkLocal ?? uploadLocalFiles(host.storage);
  return new CampaignRows({
    rows: host.rows,
    runs: host.runs,
    prepare: (body, project) =>
      sendableBody(body, project, {
        picture: (style, size) => pictures.picture(style, size),
        linkLocal,
        mixMusic: host.mixMusic,
        voicePart: host.voicePart,
      }),
    saveRow: async (record, row) => {
      // Every format's file, one after another (the download queue paces them); the edited format's last,
      // as its name is the one a start checks to tell a row already in the folder.
      for (const { url, fileName, format } of [...rowFiles(record, row)].reverse()) {
        if (!url) throw new Error(`its ${format.tag} video has no link`);
        const target = join(record.outDir, fileName);
        // A file the studio did not save is written over only when the user chose to replace it.
        await (host.saveCopy?.(url, target, { replace: row.replaceFile === true }) ??
          saveResult(url, target, { verify: host.verify }));
      }
    },
    placement: host.placement,
    avatars: host.avatars,
    voiceLength: host.voiceLength,
    log: host.log,
    notify: host.notify,
    onChange: host.onChange,
  });
}

/**
 * A campaign's `mixMusic` on a host's mixer: the one mix the editor's Create and preview make
 * (music-scenes.ts), its file handed out as `reference` names it (a grant, or a file: URL).
 */
export function campaignMusicMixer(
  mixer: MusicMixer,
  localPath: (reference: string) => Promise<string>,
  reference: (path: string) => string,
): NonNullable<CampaignHost['mixMusic']> {
  return async (project, sceneId) => reference((await mixSceneMusic({ mixer, localPath }, project, sceneId)).path);
}

/** A campaign's `voicePart` on a host's mixer and cutter: the one cut the editor's Create sends (voice-parts.ts). */
export function campaignVoiceParts(
  deps: VoicePartDeps,
  reference: (path: string) => string,
): NonNullable<CampaignHost['voicePart']> {
  return async (project, part) => reference(await sceneVoicePart(deps, project, part));
}

/** Rows' stills on a host's media toolkit: the preview's poster of the project with its text drawn in. */
export function campaignStills(
  toolkit: Pick<MediaToolkit, 'runner' | 'binary' | 'renderer' | 'tools' | 'dirs'>,
  flatten: (project: Project) => Promise<Project>,
): CampaignStills {
  return new CampaignStills({
    runner: toolkit.runner,
    ffmpeg: () => toolkit.binary('ffmpeg'),
    poster: async (project, path) => {
      await toolkit.renderer.poster(await flatten(project), 0, { outputPath: path });
    },
    frameOf: (path, width) => toolkit.tools.frame(path, 0, width),
    dir: join(toolkit.dirs.posters, 'campaigns'),
    // Beside the media toolkit's other files in the data folder: thumbnails outlive a restart.
    cache: new StillCache(join(toolkit.dirs.root, 'campaign-stills')),
  });
}

/** At most one `campaigns.changed` per campaign every 250 ms (rows change often), the last one always sent. */
export function throttledCampaignEvents(
  emit: (summary: ReturnType<typeof campaignSummary>) => void,
): (record: CampaignRecord) => void {
  const latest = new Map<string, CampaignRecord>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  return (record) => {
    latest.set(record.id, record);
    if (timers.has(record.id)) return;
    const timer = setTimeout(() => {
      timers.delete(record.id);
      const last = latest.get(record.id);
      latest.delete(record.id);
      if (last) emit(campaignSummary(last));
    }, 250);
    timer.unref?.();
    timers.set(record.id, timer);
  };
}
