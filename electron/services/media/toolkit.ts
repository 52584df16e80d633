import { join } from 'node:path';
import { resolveMediaBinary, type MediaBinaryName, type ResolveOptions } from '../system/binaries';
import { MediaCache, type SavedCopyLookup } from './media-cache';
import { MediaProber } from './probe';
import { ProcessRunner, type SpawnFn } from './process';
import { ProxyMaker } from './proxies';
import { PreviewRenderer } from './preview-renderer';
import { MediaTools } from './media-tools';
import { DraftVoice, type VoiceFacts } from './draft-voice';
import { findSpeechEngine, type SpeechEngine } from './speech-engine';
import { MusicMixer } from './music-mix';

/**
 * Wires the media services for one host (Electron, web, CLI): one process runner (so quitting kills
 * every ffmpeg it started), binaries resolved on first use, the download cache, proxies, the prober
 * and the preview renderer. Everything lives under `<dataDir>/media`.
 */
export interface MediaToolkitOptions {
  dataDir: string;
  /** Current explicit binary paths from Settings (read at each lookup, so changes apply). */
  settings?: () => { ffmpegPath?: string | null; ffprobePath?: string | null };
  resolve?: Omit<ResolveOptions, 'settings'>;
  spawn?: SpawnFn;
  fetch?: typeof fetch;
  cacheBytes?: number;
  /** Links the studio saved (downloads, the archive), read from disk; see MediaCacheOptions.savedCopy. */
  savedCopies?: SavedCopyLookup;
  /** What the service's voice list says of a voice (gender, accent), for the draft voice. */
  voiceList?: (voiceId: string) => Promise<VoiceFacts | null>;
  /** Where espeak-ng is looked for (the draft voice); default: the system's, then the npm build. */
  speech?: { espeakPath?: string; searchSystem?: boolean };
}

export interface MediaToolkit {
  runner: ProcessRunner;
  binary(name: MediaBinaryName): Promise<string>;
  cache: MediaCache;
  prober: MediaProber;
  proxies: ProxyMaker;
  renderer: PreviewRenderer;
  tools: MediaTools;
  draftVoice: DraftVoice;
  music: MusicMixer;
  dirs: { root: string; previews: string; posters: string; speech: string; music: string };
  /** Kills every running ffmpeg/ffprobe (app quit). */
  dispose(): Promise<void>;
}

export function createMediaToolkit(options: MediaToolkitOptions): MediaToolkit {
  const root = join(options.dataDir, 'media');
  const runner = new ProcessRunner(options.spawn);
  const found = new Map<MediaBinaryName, { key: string; path: string }>();
  const binary = async (name: MediaBinaryName): Promise<string> => {
    const settings = options.settings?.() ?? {};
    const key = JSON.stringify(settings);
    const known = found.get(name);
    if (known && known.key === key) return known.path;
    const resolved = await resolveMediaBinary(name, { ...options.resolve, settings });
    found.set(name, { key, path: resolved.path });
    return resolved.path;
  };
  const cache = new MediaCache({
    dir: join(root, 'cache'),
    maxBytes: options.cacheBytes ?? 2 * 1024 ** 3,
    fetch: options.fetch,
    savedCopy: options.savedCopies,
  });
  const prober = new MediaProber(() => binary('ffprobe'), runner);
  const proxies = new ProxyMaker({ dir: join(root, 'proxies'), runner, ffmpeg: () => binary('ffmpeg') });
  let engine: SpeechEngine | 'none' | undefined;
  const speechDir = join(root, 'speech');
  const draftVoice = new DraftVoice({
    runner,
    dir: speechDir,
    // Looked for once: installing espeak-ng takes a restart, as installing ffmpeg does.
    engine: () => {
      engine ??= findSpeechEngine(options.speech);
      return engine === 'none' ? null : engine;
    },
    voices: (voiceId) => options.voiceList?.(voiceId) ?? Promise.resolve(null),
  });
  const musicDir = join(root, 'music');
  const music = new MusicMixer({ runner, ffmpeg: () => binary('ffmpeg'), prober, dir: musicDir });
  const renderer = new PreviewRenderer({
    runner,
    ffmpeg: () => binary('ffmpeg'),
    cache,
    prober,
    proxies,
    draftVoice,
    music,
  });
  const tools = new MediaTools({
    runner,
    ffmpeg: () => binary('ffmpeg'),
    dir: join(root, 'scratch'),
    probe: (path) => prober.probe(path),
  });
  return {
    runner,
    binary,
    cache,
    prober,
    proxies,
    renderer,
    tools,
    draftVoice,
    music,
    dirs: {
      root,
      previews: join(root, 'previews'),
      posters: join(root, 'scratch'),
      speech: speechDir,
      music: musicDir,
    },
    dispose: () => runner.killAll(),
  };
}
