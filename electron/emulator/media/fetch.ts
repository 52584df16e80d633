import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { MediaError } from '../errors';
import type { Files } from '../state/files';
import { guardedFetch, RefusedTargetError } from '../../services/net/guarded-fetch';

export interface FetchLimits {
  maxBytes?: number;
  /** Envelope code when the file is larger than maxBytes. */
  tooLargeCode?: 1207 | 1003;
  signal?: AbortSignal;
}

const DEFAULT_MAX = 500 * 1024 * 1024;

/**
 * Turns a media URL into a local file: URLs served by this sandbox map straight to their files, other
 * http(s) URLs are downloaded once into `<dataDir>/downloads` (cached by URL).
 */
export class MediaFetcher {
  private readonly dir: string;
  /** Downloads under way, by their target file. */
  private readonly fetching = new Map<string, Promise<string>>();

  constructor(
    private readonly files: Files,
    dataDir: string,
    private readonly fetchFn: typeof fetch = fetch,
    /** Resolves once the sample media exist: a link to one may arrive while they are still generated. */
    private readonly sampleMediaReady: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.dir = join(dataDir, 'downloads');
    mkdirSync(this.dir, { recursive: true });
  }

  async toFile(url: string, field: string, limits: FetchLimits = {}): Promise<string> {
    let local = this.files.localFileFor(url);
    if (local) return local;
    const own = this.files.baseUrl !== '' && url.startsWith(this.files.baseUrl);
    if (own && /^https?:\/\/[^/]+\/sandbox\//.test(url)) {
      await this.sampleMediaReady().catch(() => undefined);
      local = this.files.localFileFor(url);
      if (local) return local;
    }
    if (own && /^https?:\/\/[^/]+\/(files|sandbox)\//.test(url)) {
      throw new MediaError(1014, `${field}: the sandbox has no such file (expired or never created)`);
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new MediaError(1003, `${field} is not a valid URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new MediaError(1003, `${field} must be an http(s) URL`);
    const target = join(this.dir, createHash('sha256').update(url).digest('hex').slice(0, 32));
    if (existsSync(target)) return target;
    // Rows of a campaign name the same link (a logo) at once: one download, which every asker waits for.
    let fetching = this.fetching.get(target);
    if (!fetching) {
      fetching = this.download(url, target, field, limits).finally(() => this.fetching.delete(target));
      this.fetching.set(target, fetching);
    }
    return fetching;
  }

  private async download(url: string, target: string, field: string, limits: FetchLimits): Promise<string> {
    const max = limits.maxBytes ?? DEFAULT_MAX;
    let res: Response;
    try {
      // Link-local, metadata and internal-network addresses are refused, redirects included.
      res = await guardedFetch(
        url,
        { signal: limits.signal ?? AbortSignal.timeout(30_000) },
        { fetch: this.fetchFn, refusePrivate: true },
      );
    } catch (error) {
      if (error instanceof RefusedTargetError) throw new MediaError(1003, `${field}: ${error.message}`);
      throw new MediaError(1014, `${field} could not be downloaded: ${(error as Error).message}`);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new MediaError(1014, `${field} could not be downloaded: HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > max) {
      await res.body.cancel().catch(() => undefined);
      throw new MediaError(limits.tooLargeCode ?? 1003, `${field} is larger than ${Math.round(max / 1024 / 1024)} MB`);
    }
    const part = `${target}.part`;
    const counter = new ByteLimit(max);
    try {
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), counter, createWriteStream(part));
    } catch (error) {
      rmSync(part, { force: true });
      if (error instanceof TooLarge)
        throw new MediaError(
          limits.tooLargeCode ?? 1003,
          `${field} is larger than ${Math.round(max / 1024 / 1024)} MB`,
        );
      throw new MediaError(1014, `${field} could not be downloaded: ${(error as Error).message}`);
    }
    renameSync(part, target);
    return target;
  }
}

class TooLarge extends Error {}

/** Passes bytes through until more than `max` have gone by. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) done(new TooLarge('too large'));
    else done(null, chunk);
  }
}
