import type { Project } from '../../common/composition/document';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ChosenMedia, mediaCalls } from '../../common/bridge/media';
import type { previewCalls } from '../../common/bridge/preview';
import type { musicCalls } from '../../common/bridge/music';
import { mixSceneMusic } from './music-scenes';
import { sceneVoicePart } from './voice-parts';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import { appSettingsSpec } from '../system/settings-store';
import type { MediaInfo } from '../../common/composition/media-info';
import { LinkChecker } from './link-checker';
import type { LinkReport } from '../../common/composition/link-checks';
import { LocalGrants, NOT_GRANTED } from './local-grants';
import { MediaInputError, type SavedCopyLookup } from './media-cache';
import type { ProgressShare } from '../system/progress';
import { importLocalFile, importName, importPath, type ImportDeps } from './local-import';
import { PreviewJobs } from './preview-jobs';
import { PreviewWarmer } from './preview-warmer';
import { createMediaToolkit, type MediaToolkit } from './toolkit';
import { sweepTemporaries } from './temp-sweep';
import { MEDIA_EXTENSIONS } from '../../common/media-types';
import type { VoiceFacts } from './draft-voice';

/** The file name of a trimmed voice: its source's name without the extension. */
function trimmedName(name: string): string {
  return importName(name).replace(/\.[a-z0-9]{1,5}$/i, '') || 'voice';
}

/** Bytes of a file from `offset`, as base64, for a page that reads it back in chunks. */
async function readChunk(
  path: string,
  offset: number,
  length: number,
  gone: string,
  code: string,
): Promise<{ base64: string; offset: number; totalBytes: number; done: boolean }> {
  const handle = await open(path, 'r').catch(() => {
    throw new StudioError(gone, code);
  });
  try {
    const { size } = await handle.stat();
    const start = Math.min(offset, size);
    const buffer = Buffer.alloc(Math.min(length, size - start));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return {
      base64: buffer.subarray(0, bytesRead).toString('base64'),
      offset: start,
      totalBytes: size,
      done: start + bytesRead >= size,
    };
  } finally {
    await handle.close();
  }
}

/**
 * The preview.* and media.* calls: local renders (events for progress, completion and failure),
 * posters, reading a finished preview back in chunks, and ffprobe inspection. Quitting cancels every
 * render and kills every ffmpeg/ffprobe this host started.
 */
export interface MediaDomain extends DomainModule<typeof previewCalls & typeof mediaCalls & typeof musicCalls> {
  /** Takes in a file dropped on a page that cannot name its path (the web host); see importLocalFile. */
  importFile(name: string, body: Readable): Promise<ChosenMedia>;
  importPath(path: string): Promise<ChosenMedia>;
  /** ffprobe of a link or a granted local file (what media.probe answers), for other domains. */
  probe(reference: string): Promise<MediaInfo>;
  /** One frame as a JPEG data URL (what media.frame answers), for other domains. */
  frame(reference: string, atMs: number, width: number): Promise<{ dataUrl: string }>;
  /**
   * Files the host itself vouches for (a verified saved copy), not the page: read without a grant, through
   * the same ffprobe cache and frame queue as every other glance.
   */
  hostFiles: {
    probe(path: string): Promise<MediaInfo>;
    frame(path: string, atMs: number, width: number): Promise<Buffer>;
  };
  /** The host's ffmpeg, cache and draft voice, for domains built on them (captions). */
  toolkit: MediaToolkit;
  /** The link pre-flight (what media.checkLinks answers), asked afresh, for other domains (campaigns). */
  checkLinks(urls: readonly string[]): Promise<LinkReport[]>;
}

export interface MediaDomainDeps {
  /** Built from the other fields when absent (tests bring their own). */
  toolkit?: MediaToolkit;
  grants?: LocalGrants;
  /** The renders' share of the taskbar's progress; default: the whole bar. */
  progress?: ProgressShare;
  savedCopies?: SavedCopyLookup;
  voiceList?: (voiceId: string) => Promise<VoiceFacts | null>;
  /** The project with its text elements as pictures (the text service); without it, text is left out of previews. */
  flattenText?: (project: Project) => Promise<Project>;
}

export function createMediaDomain(
  base: Pick<HostBase, 'dataDir' | 'createStore' | 'emit' | 'log' | 'platform'>,
  deps: MediaDomainDeps = {},
): MediaDomain {
  const { grants = new LocalGrants(), progress = { set: (f) => base.platform.setProgress?.(f) } } = deps;
  const flatten = deps.flattenText ?? (async (project: Project) => project);
  const settings = base.createStore(appSettingsSpec);
  const media =
    deps.toolkit ??
    createMediaToolkit({
      dataDir: base.dataDir,
      settings: () => settings.get(),
      savedCopies: deps.savedCopies,
      voiceList: deps.voiceList,
    });

  // One rule for every call that reads media (probe, frame, waveform, poster, render): local files
  // only as the user granted them, links only http(s).
  media.cache.restrictLocalFiles((reference) => grants.pathOf(reference), NOT_GRANTED);

  /** The local copy of a media reference the renderer may ask about. */
  const allowed = (reference: string): Promise<string> =>
    media.cache.localPath(reference).catch((error: unknown) => {
      if (error instanceof MediaInputError && error.message === NOT_GRANTED)
        throw new StudioError(NOT_GRANTED, 'not-allowed');
      throw error;
    });

  const probe = async (reference: string): Promise<MediaInfo> => media.prober.probe(await allowed(reference));
  const frame = async (reference: string, atMs: number, width: number): Promise<{ dataUrl: string }> => {
    const bytes = await media.tools.frame(await allowed(reference), atMs, width);
    // A transparent picture comes back as a PNG (media-tools.ts), everything else as a JPEG.
    const type = bytes[0] === 0x89 && bytes.subarray(1, 4).toString('latin1') === 'PNG' ? 'png' : 'jpeg';
    return { dataUrl: `data:image/${type};base64,${bytes.toString('base64')}` };
  };

  const links = new LinkChecker({ cache: media.cache, prober: media.prober });
  // Dropped or chosen files: checked the same way, sideways photos taken in upright (local-import.ts).
  const imports: ImportDeps = {
    dir: join(base.dataDir, 'imports'),
    grants,
    prober: media.prober,
    upright: { runner: media.runner, ffmpeg: () => media.binary('ffmpeg') },
  };
  const warmer = new PreviewWarmer(media.renderer);
  // Temporary files a crash or a kill left behind are removed once, in the background.
  const swept = sweepTemporaries({
    partsIn: [join(media.dirs.root, 'cache'), join(media.dirs.root, 'proxies'), media.dirs.previews, media.dirs.speech],
    scratch: media.dirs.posters,
  }).catch(() => 0);

  const jobs = new PreviewJobs(media.renderer, media.dirs.previews, {
    progress: (renderId, p) => {
      base.emit('preview.progress', { renderId, fraction: p.fraction, outTimeMs: p.outTimeMs, speed: p.speed });
      progress.set(p.done ? null : p.fraction);
    },
    done: (renderId, result) => {
      progress.set(null);
      void stat(result.path).then((info) =>
        base.emit('preview.done', {
          renderId,
          fileId: result.fileName,
          sizeBytes: info.size,
          width: result.width,
          height: result.height,
          durationMs: result.durationMs,
          mimeType: 'video/mp4',
          notes: result.notes,
          draftVoices: result.draftVoices,
          followsSpeech: result.followsSpeech,
        }),
      );
    },
    failed: (renderId, message, cancelled) => {
      progress.set(null);
      if (!cancelled) base.log.warn('preview failed', { renderId, message });
      base.emit('preview.failed', { renderId, message, cancelled });
    },
  });

  return {
    checkLinks: (urls) => links.check(urls, { fresh: true }),
    handlers: {
      'preview.render': async (project, options) => ({
        renderId: jobs.start(await flatten(project), { quality: options.quality }),
      }),
      'preview.cancel': async (renderId) => jobs.cancel(renderId),
      'preview.prepare': async (project) => warmer.warm(await flatten(project)),
      'preview.poster': async (project, options) => {
        const path = join(
          media.dirs.posters,
          `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.jpg`,
        );
        try {
          await media.renderer.poster(await flatten(project), options.atMs, { outputPath: path });
          const bytes = await readFile(path);
          const { width, height } = await media.prober.probe(path);
          return {
            dataUrl: `data:image/jpeg;base64,${bytes.toString('base64')}`,
            width: width ?? 0,
            height: height ?? 0,
          };
        } finally {
          await rm(path, { force: true });
        }
      },
      // The ids were validated as plain file names; basename makes sure they cannot leave their folder.
      'preview.read': async (fileId, offset, length) =>
        readChunk(
          join(media.dirs.previews, basename(fileId)),
          offset,
          length,
          'That preview no longer exists; render it again.',
          'preview-gone',
        ),
      'media.probe': async (reference) => probe(reference),
      'media.frame': async (reference, { atMs, width }) => frame(reference, atMs, width),
      'media.waveform': async (reference, { buckets }) => media.tools.waveform(await allowed(reference), buckets),
      'media.trimAudio': async (reference, { durationMs, name }) => {
        const source = await allowed(reference);
        const folder = join(base.dataDir, 'imports', randomBytes(8).toString('hex'));
        const path = join(folder, `${trimmedName(name ?? basename(source))}-${(durationMs / 1000).toFixed(1)}s.mp3`);
        await mkdir(folder, { recursive: true });
        try {
          await media.tools.trimAudio(source, durationMs, path);
          const info = await media.prober.probe(path);
          return { url: grants.grant(path), name: basename(path), info };
        } catch (error) {
          await rm(folder, { recursive: true, force: true });
          throw new StudioError(`The voice could not be trimmed: ${(error as Error).message}`, 'trim-failed');
        }
      },
      'music.mix': async ({ project, sceneId }) => {
        const mix = await mixSceneMusic({ mixer: media.music, localPath: allowed }, project, sceneId);
        return {
          url: grants.grant(mix.path),
          fileId: basename(mix.path),
          durationMs: mix.durationMs,
          lufs: mix.lufs,
          normalization: mix.normalization,
        };
      },
      'music.voicePart': async ({ project, reference }) => {
        const deps = { mixer: media.music, localPath: allowed, cut: media.tools.cutAudio.bind(media.tools) };
        return { url: grants.grant(await sceneVoicePart({ ...deps, dir: media.dirs.music }, project, reference)) };
      },
      'music.read': async (fileId, offset, length) =>
        readChunk(
          join(media.dirs.music, basename(fileId)),
          offset,
          length,
          'That music mix is no longer kept; mix it again.',
          'mix-gone',
        ),
      'media.checkLinks': async ({ urls, fresh }) => links.check(urls, { fresh }),
      'media.chooseFile': async ({ kind }) => {
        const choose = base.platform.chooseOpenPath;
        if (!choose)
          throw new StudioError('This host has no file dialogs; use a link to the media instead.', 'no-dialogs');
        const extensions = kind === 'any' ? Object.values(MEDIA_EXTENSIONS).flat() : [...MEDIA_EXTENSIONS[kind]];
        const path = await choose({ title: 'Choose media', extensions });
        return path ? importPath(imports, path) : null;
      },
    },
    probe,
    frame,
    hostFiles: {
      probe: (path) => media.prober.probe(path),
      frame: (path, atMs, width) => media.tools.frame(path, atMs, width),
    },
    toolkit: media,
    importPath: (path) => importPath(imports, path),
    importFile: (name, body) => importLocalFile(imports, name, body),
    async dispose() {
      await swept;
      warmer.dispose();
      await jobs.dispose();
      await media.dispose();
    },
  };
}
