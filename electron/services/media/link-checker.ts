import PQueue from 'p-queue';
import type { LinkReport } from '../../common/composition/link-checks';
import { describeFormat, UNSUPPORTED_PICTURES } from '../../common/composition/media-format';
import { isRealMedia } from '../../common/composition/media-info';
import { guardedFetch } from '../net/guarded-fetch';
import type { MediaCache } from './media-cache';
import { describeNetworkError, shorten } from './media-cache';
import type { MediaProber } from './probe';

export interface LinkCheckerOptions {
  cache: Pick<MediaCache, 'localPath'>;
  prober: Pick<MediaProber, 'probe'>;
  fetch?: typeof fetch;
  /** How long a report is reused without asking the server again. */
  ttlMs?: number;
  /** Gives up on a server that does not answer the reachability request in this time. */
  timeoutMs?: number;
  concurrency?: number;
  now?: () => number;
}

/**
 * The pre-flight of media links, on the host: is the link reachable now (a HEAD request, or a
 * one-byte GET where HEAD is refused), and is what it serves a picture, a video or a sound (ffprobe
 * of the media cache's copy, which the preview then reuses). Reports are kept for a while per link;
 * `fresh` asks every server again, as the Create dialog does before a paid job.
 */
export class LinkChecker {
  private readonly known = new Map<string, LinkReport>();
  private readonly running = new Map<string, Promise<LinkReport>>();
  private readonly queue: PQueue;
  private readonly now: () => number;

  constructor(private readonly options: LinkCheckerOptions) {
    this.queue = new PQueue({ concurrency: options.concurrency ?? 4 });
    this.now = options.now ?? Date.now;
  }

  check(urls: readonly string[], options: { fresh?: boolean } = {}): Promise<LinkReport[]> {
    return Promise.all([...new Set(urls.map((u) => u.trim()))].map((url) => this.one(url, options.fresh ?? false)));
  }

  private one(url: string, fresh: boolean): Promise<LinkReport> {
    const known = this.known.get(url);
    if (!fresh && known && this.now() - known.checkedAt < (this.options.ttlMs ?? 5 * 60_000))
      return Promise.resolve(known);
    const running = this.running.get(url);
    if (running) return running;
    const job = (this.queue.add(() => this.inspect(url)) as Promise<LinkReport>).then((report) => {
      this.known.set(url, report);
      return report;
    });
    this.running.set(url, job);
    return job.finally(() => this.running.delete(url));
  }

  private async inspect(url: string): Promise<LinkReport> {
    const report = (fields: Partial<LinkReport> & Pick<LinkReport, 'ok'>): LinkReport => ({
      url,
      kind: null,
      durationMs: null,
      sizeBytes: null,
      checkedAt: this.now(),
      ...fields,
    });
    if (/^https?:\/\//i.test(url)) {
      const unreachable = await this.reachability(url);
      if (unreachable) return report({ ok: false, reason: unreachable });
    }
    let path: string;
    try {
      path = await this.options.cache.localPath(url);
    } catch (error) {
      return report({ ok: false, reason: plain((error as Error).message, url) });
    }
    const info = await this.options.prober.probe(path).catch(() => null);
    if (info && UNSUPPORTED_PICTURES.has(info.format))
      return report({
        ok: false,
        reason: `${describeFormat(info.format)}, which the service does not take; use a JPEG or PNG copy`,
      });
    if (!info || !isRealMedia(info)) return report({ ok: false, reason: 'not a picture, video or sound' });
    return report({
      ok: true,
      kind: info.kind,
      format: info.format,
      durationMs: info.durationMs,
      sizeBytes: info.sizeBytes,
    });
  }

  /** Null when the server serves the link; else why not ("HTTP 404 Not Found", "unreachable (ECONNREFUSED)"). */
  private async reachability(url: string): Promise<string | null> {
    const ask = (init: RequestInit): Promise<Response> =>
      guardedFetch(
        url,
        { ...init, signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000) },
        { fetch: this.options.fetch },
      );
    try {
      let response = await ask({ method: 'HEAD' });
      if (response.status === 405 || response.status === 501) {
        response = await ask({ method: 'GET', headers: { range: 'bytes=0-0' } });
        await response.body?.cancel().catch(() => undefined);
      }
      if (response.ok) return null;
      return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    } catch (error) {
      return describeNetworkError(error);
    }
  }
}

/** The cache's message without the link itself (the report is shown beside it already). */
function plain(message: string, url: string): string {
  const prefix = `cannot download ${shorten(url)}`;
  if (!message.startsWith(prefix)) return message;
  return message
    .slice(prefix.length)
    .replace(/^: /, '')
    .replace(/^ \((.*)\)$/, '$1');
}
