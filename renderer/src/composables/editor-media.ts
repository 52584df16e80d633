import { shallowReactive } from 'vue';
import { placeholdersIn } from '@common/campaign/variables';
import { mediaKindByExtension } from '@common/media-types';
import { call } from '@/bridge';
import { isLocalReference } from './local-files';

/**
 * Decoded media for the canvas, shared by every scene: one <img> or <video> per URL. The canvas draws
 * these directly; a reactive status map lets it redraw when a source finishes loading.
 */
export type MediaKind = 'image' | 'video';
export type MediaStatus = 'loading' | 'ready' | 'error';

export interface MediaEntry {
  kind: MediaKind;
  element: HTMLImageElement | HTMLVideoElement;
  status: MediaStatus;
}

export function guessMediaKind(url: string): MediaKind {
  return mediaKindByExtension(url) === 'video' ? 'video' : 'image';
}

export class MediaCache {
  /** url -> entry; shallowReactive so a status change re-renders whoever read it. */
  readonly entries = shallowReactive(new Map<string, MediaEntry>());

  constructor(private readonly doc: Document = document) {}

  get(url: string, kind: MediaKind = guessMediaKind(url)): MediaEntry {
    const known = this.entries.get(url);
    if (known) return known;
    // A template's `{{logo}}` is filled per row, not a link: asking for it would only fetch a 404.
    if (placeholdersIn(url).length > 0) {
      const entry: MediaEntry = {
        kind,
        element: this.doc.createElement(kind === 'video' ? 'video' : 'img'),
        status: 'error',
      };
      this.entries.set(url, entry);
      return entry;
    }
    // The page cannot open a local file itself: the host draws a still of it (a video's first frame).
    const entry = isLocalReference(url)
      ? this.loadLocalStill(url)
      : kind === 'video'
        ? this.loadVideo(url)
        : this.loadImage(url);
    this.entries.set(url, entry);
    return entry;
  }

  /** Ready element for drawing, or null while it loads or when it failed. */
  drawable(url: string | null | undefined, kind?: MediaKind): HTMLImageElement | HTMLVideoElement | null {
    if (!url) return null;
    const entry = this.get(url, kind);
    return entry.status === 'ready' ? entry.element : null;
  }

  status(url: string | null | undefined): MediaStatus | null {
    return url ? (this.entries.get(url)?.status ?? null) : null;
  }

  videos(): HTMLVideoElement[] {
    const out: HTMLVideoElement[] = [];
    for (const entry of this.entries.values()) {
      if (entry.kind === 'video' && entry.status === 'ready') out.push(entry.element as HTMLVideoElement);
    }
    return out;
  }

  private settle(url: string, status: MediaStatus): void {
    const entry = this.entries.get(url);
    if (entry && entry.status !== status) this.entries.set(url, { ...entry, status });
  }

  private loadImage(url: string): MediaEntry {
    const img = this.doc.createElement('img');
    img.decoding = 'async';
    img.addEventListener('load', () => this.settle(url, 'ready'), { once: true });
    img.addEventListener('error', () => this.fromHost(url), { once: true });
    img.src = url;
    return { kind: 'image', element: img, status: 'loading' };
  }

  private loadLocalStill(url: string): MediaEntry {
    const img = this.doc.createElement('img');
    img.addEventListener('load', () => this.settle(url, 'ready'), { once: true });
    img.addEventListener('error', () => this.settle(url, 'error'), { once: true });
    call('media.frame', url, { atMs: 0, width: 1280 }).then(
      (frame) => (img.src = frame.dataUrl),
      () => this.settle(url, 'error'),
    );
    return { kind: 'image', element: img, status: 'loading' };
  }

  /**
   * A link the page cannot load (an expired result, most often): the host draws a still from the copy
   * the studio saved of it, if any; the entry fails only when the host cannot either.
   */
  private fromHost(url: string): void {
    if (this.entries.has(url)) this.entries.set(url, this.loadLocalStill(url));
  }

  private loadVideo(url: string): MediaEntry {
    const video = this.doc.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    // The first decoded frame is what the canvas shows while stopped.
    video.addEventListener('loadeddata', () => this.settle(url, 'ready'), { once: true });
    video.addEventListener('error', () => this.fromHost(url), { once: true });
    video.src = url;
    return { kind: 'video', element: video, status: 'loading' };
  }
}
