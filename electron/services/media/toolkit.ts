import { join } from 'node:path';
import { resolveMediaBinary, type MediaBinaryName, type ResolveOptions } from './binaries';
import { MediaCache } from './media-cache';
import { MediaProber } from './probe';
import { ProcessRunner, type SpawnFn } from './process';
import { ProxyMaker } from './proxies';
import { PreviewRenderer } from './preview-renderer';
import { MediaTools } from './media-tools';

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
}

export interface MediaToolkit {
  runner: ProcessRunner;
  binary(name: MediaBinaryName): Promise<string>;
  cache: MediaCache;
  prober: MediaProber;
  proxies: ProxyMaker;
  renderer: PreviewRenderer;
  tools: MediaTools;
  dirs: { root: string; previews: string; posters: string };
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
  const cache = new MediaCache({ dir: join(root, 'cache'), maxBytes: options.cacheBytes ?? 2 * 1024 ** 3, fetch: options.fetch });
  const prober = new MediaProber(() => binary('ffprobe'), runner);
  const proxies = new ProxyMaker({ dir: join(root, 'proxies'), runner, ffmpeg: () => binary('ffmpeg') });
  const renderer = new PreviewRenderer({ runner, ffmpeg: () => binary('ffmpeg'), cache, prober, proxies });
  const tools = new MediaTools({ runner, ffmpeg: () => binary('ffmpeg'), dir: join(root, 'scratch') });
  return {
    runner,
    binary,
    cache,
    prober,
    proxies,
    renderer,
    tools,
    dirs: { root, previews: join(root, 'previews'), posters: join(root, 'scratch') },
    dispose: () => runner.killAll(),
  };
}
