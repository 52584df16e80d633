import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { guardedFetch } from '../net/guarded-fetch';
import { FolderBudget, type CachedFile } from './folder-budget';

/**
 * Remote media downloaded once into a size-capped folder, least recently used files evicted first.
 * Local references (file: URLs, absolute paths) are used in place. Downloads stream to "<name>.part"
 * and are renamed when complete, so a crash or cancel never leaves a truncated file in the cache.
 */
export class MediaInputError extends Error {
  override name = 'MediaInputError';
}

export interface MediaCacheOptions {
  dir: string;
  /** Total size the cache may reach before old files are evicted. */
  maxBytes: number;
  /** Largest single download accepted. Default: maxBytes. */
  maxFileBytes?: number;
  fetch?: typeof fetch;
  /**
   * A link the studio has saved to disk (a download, the archive) is read from that copy instead of
   * the network: previews and the editor keep working after the service's link expires.
   */
  savedCopy?: SavedCopyLookup;
  /** Gives up on a download that sends nothing for this long. */
  timeoutMs?: number;
  /** Lists the cache folder for eviction (tests count the reads). */
  scan?: (dir: string) => Promise<CachedFile[]>;
}

/**
 * Which local references may be read, and where they are: the path for an allowed reference, null
 * for any other. Without one (the command line, whose user names files), any local path is read.
 */
export type LocalFileRule = (reference: string) => string | null;

/** The path of a complete copy of a link the studio saved itself, or null. */
export type SavedCopyLookup = (url: string) => Promise<string | null>;

export class MediaCache {
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly fetchImpl: typeof fetch;
  private readonly budget: FolderBudget;
  private localRule: { allow: LocalFileRule; refusal: string } | null = null;

  constructor(private readonly options: MediaCacheOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.budget = new FolderBudget({ dir: options.dir, maxBytes: options.maxBytes, scan: options.scan });
  }

  /**
   * From now on a local reference is read only when `allow` maps it to a path; any other is refused
   * with `refusal` before the file system is touched, so the answer says nothing about the path.
   */
  restrictLocalFiles(allow: LocalFileRule, refusal: string): void {
    this.localRule = { allow, refusal };
  }

  /** A local path for a media reference: a saved copy or downloaded (once) for http(s), as it is for local files. */
  async localPath(reference: string, signal?: AbortSignal): Promise<string> {
    const value = reference.trim();
    if (/^https?:\/\//i.test(value)) {
      const saved = await this.options.savedCopy?.(value).catch(() => null);
      return saved ?? this.download(value, signal);
    }
    const allowed = this.localRule ? this.localRule.allow(value) : null;
    if (this.localRule && allowed === null) throw new MediaInputError(this.localRule.refusal);
    const path = allowed ?? (value.startsWith('file:') ? safeFileUrl(value) : value);
    if (!path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path))
      throw new MediaInputError(`"${shorten(value)}" is neither a link nor a local file path`);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new MediaInputError(`the file ${path} does not exist`);
    return path;
  }

  private download(url: string, signal?: AbortSignal): Promise<string> {
    const target = join(this.options.dir, cacheName(url));
    const existing = this.inflight.get(target);
    if (existing) return existing;
    const job = this.fetchOnce(url, target, signal).finally(() => this.inflight.delete(target));
    this.inflight.set(target, job);
    return job;
  }

  private async fetchOnce(url: string, target: string, signal?: AbortSignal): Promise<string> {
    const cached = await stat(target).catch(() => null);
    if (cached?.isFile()) {
      await touch(target);
      return target;
    }
    await mkdir(this.options.dir, { recursive: true });
    const limit = this.options.maxFileBytes ?? this.options.maxBytes;
    // An idle timeout, not a deadline: a large file on a slow link may take as long as it needs while
    // bytes keep arriving; a server that goes silent for timeoutMs is given up on.
    const idle = new IdleTimer(this.options.timeoutMs ?? 60_000);
    const response = await this.respond(url, idle, signal);
    const declared = Number(response.headers.get('content-length'));
    if (declared > limit) {
      idle.stop();
      await response.body?.cancel().catch(() => undefined);
      throw new MediaInputError(
        `${shorten(url)} is ${mb(declared)} MB, more than the ${mb(limit)} MB the media cache takes`,
      );
    }

    const part = `${target}.${process.pid}.part`;
    let received = 0;
    const counter = async function* (source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        idle.touch();
        received += chunk.byteLength;
        if (received > limit)
          throw new MediaInputError(`${shorten(url)} is larger than the ${mb(limit)} MB the media cache takes`);
        yield chunk;
      }
    };
    try {
      await pipeline(
        Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
        counter,
        createWriteStream(part),
      );
      if (Number.isFinite(declared) && declared > 0 && received !== declared) {
        throw new MediaInputError(`the download of ${shorten(url)} stopped early (${received} of ${declared} bytes)`);
      }
      await rename(part, target);
    } catch (error) {
      await rm(part, { force: true });
      if (error instanceof MediaInputError || signal?.aborted) throw error;
      throw new MediaInputError(
        `cannot download ${shorten(url)}: ${idle.fired ? `nothing arrived for ${idle.ms / 1000} s` : describeNetworkError(error)}`,
      );
    } finally {
      idle.stop();
    }
    await this.budget.added(received, target);
    return target;
  }
  /**
   * The bytes of a small linked file, for a look that needs no copy on disk (a voiceover's length, once a
   * row): its cached copy when there is one, else fetched into memory and not kept, which spares a
   * worker a file made, renamed and evicted again for every voiceover. Null when the file is larger than
   * `maxBytes`: the caller then takes localPath, which streams it to disk.
   */
  async smallFile(url: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array | null> {
    const cached = join(this.options.dir, cacheName(url));
    const copy = await stat(cached).catch(() => null);
    if (copy?.isFile()) return copy.size <= maxBytes ? await readFile(cached) : null;
    const idle = new IdleTimer(this.options.timeoutMs ?? 60_000);
    const response = await this.respond(url, idle, signal);
    const body = response.body as import('node:stream/web').ReadableStream<Uint8Array>;
    const chunks: Uint8Array[] = [];
    let received = 0;
    const declared = Number(response.headers.get('content-length'));
    try {
      if (declared > maxBytes) return null;
      for await (const chunk of body) {
        idle.touch();
        received += chunk.byteLength;
        if (received > maxBytes) return null;
        chunks.push(chunk);
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new MediaInputError(
        `cannot download ${shorten(url)}: ${idle.fired ? `nothing arrived for ${idle.ms / 1000} s` : describeNetworkError(error)}`,
      );
    } finally {
      idle.stop();
      await body.cancel().catch(() => undefined);
    }
    // Cut short, a sound would measure shorter than it is.
    if (Number.isFinite(declared) && declared > 0 && received !== declared)
      throw new MediaInputError(`the download of ${shorten(url)} stopped early (${received} of ${declared} bytes)`);
    return Buffer.concat(chunks, received);
  }

  /** The link's answer with a body to read, or the reason there is none as a MediaInputError. */
  private async respond(url: string, idle: IdleTimer, signal?: AbortSignal): Promise<Response> {
    const combined = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
    let response: Response;
    try {
      // Link-local and cloud-metadata addresses are refused, also behind a redirect.
      response = await guardedFetch(url, { signal: combined }, { fetch: this.fetchImpl });
    } catch (error) {
      idle.stop();
      if (signal?.aborted) throw error;
      throw new MediaInputError(`cannot download ${shorten(url)}: ${describeNetworkError(error)}`);
    }
    if (!response.ok || !response.body) {
      idle.stop();
      await response.body?.cancel().catch(() => undefined);
      throw new MediaInputError(`cannot download ${shorten(url)} (HTTP ${response.status})`);
    }
    idle.touch();
    return response;
  }
}

/** Aborts when touch() has not been called for `ms`; stop() ends it. */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | null = null;
  fired = false;
  constructor(readonly ms: number) {
    this.touch();
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  touch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new DOMException('no data arrived in time', 'TimeoutError'));
    }, this.ms);
  }
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Stable cache file name for a URL: a hash (the URL may carry signed query strings) + extension. */
export function cacheName(url: string): string {
  const path = url.split(/[?#]/)[0];
  const ext = extname(path).toLowerCase();
  const safeExt = /^\.[a-z0-9]{1,5}$/.test(ext) ? ext : '';
  return `${createHash('sha256').update(url).digest('hex').slice(0, 32)}${safeExt}`;
}

/** A URL for messages: no query string or fragment (signed links carry credentials there). */
export function shorten(url: string): string {
  const bare = url.split(/[?#]/)[0];
  return bare.length > 120 ? `${bare.slice(0, 117)}...` : bare;
}

/**
 * Marks a cached file as just used, for least-recently-used eviction: its access time is set, its
 * modification time kept (proxies are keyed on the source's modification time).
 */
export async function touch(path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (info) await utimes(path, new Date(), info.mtime).catch(() => undefined);
}

function safeFileUrl(url: string): string {
  try {
    return fileURLToPath(url);
  } catch {
    throw new MediaInputError(`"${shorten(url)}" is not a valid file URL`);
  }
}

/** Why a request failed, in a few words ("unreachable (ECONNREFUSED)", "timed out"). */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `unreachable (${cause.code})`;
  if (cause?.message) return cause.message;
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  return (error as Error).message || 'network error';
}

function mb(bytes: number): string {
  return String(Math.round((bytes / 1024 / 1024) * 10) / 10);
}
