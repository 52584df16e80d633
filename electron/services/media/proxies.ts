import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaInfo } from '../../common/composition/media-info';
import { touch } from './media-cache';
import { trimFolder } from './folder-budget';
import type { ProcessRunner } from './process';

/**
 * Small, silent, fast-to-decode copies of large videos for previews. Decoding dominates preview time
 * (see the toolchain notes: ~1.4x real time from 1080p sources, ~6.5x from 360p proxies), so a video
 * whose longer side exceeds 1.5 × the proxy size gets a proxy, made once and reused while the source
 * file is unchanged (the key includes its size and modification time).
 */
const PROXY_FPS = 25;
const PROXY_TIERS = [320, 640, 1280];

export interface ProxyOptions {
  dir: string;
  runner: ProcessRunner;
  ffmpeg: () => Promise<string>;
  /** Largest proxy (longer side, pixels); smaller ones are made for elements drawn small. */
  longSide?: number;
  /** Proxies kept at most; least recently used go first. */
  maxBytes?: number;
}

interface Making {
  done: Promise<string>;
  controller: AbortController;
  /** Callers still waiting; the process is stopped only when the last one gives up. */
  waiting: number;
}

export class ProxyMaker {
  private readonly inflight = new Map<string, Making>();

  constructor(private readonly options: ProxyOptions) {}

  get longSide(): number {
    return this.options.longSide ?? 640;
  }

  /**
   * The proxy size for a media drawn at most `drawnLongSide` pixels on its longer side: the smallest
   * tier that is at least that big (never above longSide), so a clip shown in a corner decodes a
   * quarter of the pixels of one shown full frame.
   */
  tierFor(drawnLongSide: number): number {
    return PROXY_TIERS.find((tier) => tier >= drawnLongSide && tier <= this.longSide) ?? this.longSide;
  }

  needsProxy(info: MediaInfo, tier = this.longSide): boolean {
    if (info.kind !== 'video' || info.width === null || info.height === null) return false;
    return Math.max(info.width, info.height) > tier * 1.5;
  }

  /**
   * The proxy of `source` (made now if missing), or the source itself when it is small enough. Callers
   * asking for the same proxy share one ffmpeg; a caller's signal abandons only its own wait, and the
   * process stops when nobody waits any more. `lowPriority`: made in the background, ahead of need.
   */
  async proxyFor(
    source: string,
    info: MediaInfo,
    options: { drawnLongSide?: number; signal?: AbortSignal; lowPriority?: boolean } = {},
  ): Promise<string> {
    const side = this.tierFor(options.drawnLongSide ?? this.longSide);
    if (!this.needsProxy(info, side)) return source;
    const signal = options.signal;
    const file = await stat(source);
    // Whole seconds: touching a file for LRU rewrites its mtime at millisecond precision.
    const modified = Math.floor(file.mtimeMs / 1000);
    const key = createHash('sha256').update(`${source}\0${file.size}\0${modified}\0${side}`).digest('hex').slice(0, 32);
    const target = join(this.options.dir, `${key}.mp4`);
    if (signal?.aborted) throw new DOMException('The proxy was cancelled', 'AbortError');
    let making = this.inflight.get(target);
    if (!making) {
      const controller = new AbortController();
      const started: Making = { controller, waiting: 0, done: Promise.resolve('') };
      started.done = this.make(source, target, info, side, controller.signal, options.lowPriority === true).finally(
        () => this.inflight.delete(target),
      );
      this.inflight.set(target, started);
      making = started;
    }
    return this.wait(making, signal);
  }

  private wait(making: Making, signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) return Promise.reject(new DOMException('The proxy was cancelled', 'AbortError'));
    making.waiting += 1;
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        making.waiting -= 1;
        signal?.removeEventListener('abort', leave);
        return true;
      };
      const leave = (): void => {
        if (!settle()) return;
        if (making.waiting === 0) making.controller.abort();
        reject(new DOMException('The proxy was cancelled', 'AbortError'));
      };
      signal?.addEventListener('abort', leave, { once: true });
      making.done.then(
        (path) => settle() && resolve(path),
        (error: unknown) => settle() && reject(error),
      );
    });
  }

  private async make(
    source: string,
    target: string,
    info: MediaInfo,
    side: number,
    signal: AbortSignal,
    lowPriority: boolean,
  ): Promise<string> {
    if ((await stat(target).catch(() => null))?.isFile()) {
      await touch(target);
      return target;
    }
    await mkdir(this.options.dir, { recursive: true });
    const part = `${target}.part`;
    // Previews run at 25 fps: a faster source would only be decoded to be dropped.
    const fps = info.fps !== null && info.fps > PROXY_FPS ? `fps=${PROXY_FPS},` : '';
    const args = [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-loglevel',
      'error',
      '-i',
      source,
      '-an',
      '-vf',
      `${fps}${proxyScale(info, side)}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '26',
      '-g',
      '25',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'mp4',
      part,
    ];
    const result = await this.options.runner
      .run(await this.options.ffmpeg(), args, { signal, lowPriority })
      .catch(async (error: unknown) => {
        await rm(part, { force: true });
        throw error;
      });
    if (result.code !== 0) {
      await rm(part, { force: true });
      if (result.aborted) throw new DOMException('The proxy was cancelled', 'AbortError');
      throw new Error(`could not make a preview proxy: ${result.stderr.trim().split('\n').at(-1) ?? 'ffmpeg failed'}`);
    }
    await rename(part, target);
    await trimFolder(this.options.dir, this.options.maxBytes ?? 2 * 1024 ** 3, target);
    return target;
  }
}

/**
 * The proxy's size: the source fitted inside side×side, never enlarged, with even sides (x264's 4:2:0).
 * Computed here from the probed size rather than with scale's force_divisible_by, which ffmpeg before
 * 4.3 (the npm-bundled build among them) does not have.
 */
export function proxyScale(info: Pick<MediaInfo, 'width' | 'height'>, side: number): string {
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  if (info.width && info.height) {
    const factor = Math.min(1, side / info.width, side / info.height);
    return `scale=${even(info.width * factor)}:${even(info.height * factor)}`;
  }
  return `scale=w='trunc(min(${side},iw)/2)*2':h=-2`;
}
