import { h } from 'vue';
import { NPopover } from 'naive-ui';
import { isAudioKind, type JobView, type ResultMedia } from '@common/bridge';
import { formatBytes } from '@common/bridge';

/** A preview plays at most this much of the result, from its start, again and again. */
const PREVIEW_SECONDS = 6;

/** "0:07", "12:04", "1:02:03": a result's length as players show it. */
export function formatClock(ms: number): string {
  const total = Math.max(1, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const UNKNOWN_WHY: Record<ResultMedia['source'], string> = {
  copy: 'The saved copy could not be read.',
  service: 'Not known: there is no saved copy to measure, and the service does not say.',
  none: 'Not known: there is no saved copy to measure, and the service does not say.',
};

function unknown(media: ResultMedia | undefined, what: string) {
  if (media?.pending) return h('span', { class: 'media-unknown', title: `Reading the saved copy's ${what}…` }, '…');
  return h('span', { class: 'media-unknown', title: media ? UNKNOWN_WHY[media.source] : undefined }, '—');
}

const FROM: Record<ResultMedia['source'], string> = {
  copy: 'measured on the saved copy',
  service: 'as the service reported it',
  none: '',
};

export function durationCell(media: ResultMedia | undefined) {
  if (!media || media.durationMs === null) return unknown(media, 'length');
  return h('span', { title: `${formatClock(media.durationMs)}, ${FROM[media.source]}` }, formatClock(media.durationMs));
}

export function sizeCell(media: ResultMedia | undefined) {
  if (!media || media.bytes === null) return unknown(media, 'size');
  return h('span', { title: `${media.bytes.toLocaleString()} bytes, ${FROM[media.source]}` }, formatBytes(media.bytes));
}

/** Where a video can be played muted on hover: its saved copy (the web host), else its link while it lives. */
export function previewSource(job: JobView, media: ResultMedia | undefined, linkAlive: boolean): string | null {
  if (isAudioKind(job.kind)) return null;
  if (media?.playUrl) return media.playUrl;
  return linkAlive && job.resultUrl ? job.resultUrl : null;
}

/** Loops the first seconds: a glance at the result, not a player. */
function loopStart(event: Event): void {
  const video = event.target as HTMLVideoElement;
  if (video.currentTime > PREVIEW_SECONDS) video.currentTime = 0;
}

function stillOf(job: JobView, media: ResultMedia | undefined) {
  if (media?.thumbnail) return h('img', { class: 'thumb', src: media.thumbnail, alt: '', 'data-thumb': 'copy' });
  const sound = isAudioKind(job.kind);
  const title = sound
    ? 'Sound: no picture'
    : media?.pending
      ? 'Reading the saved copy…'
      : 'No picture: the service gives none, and there is no saved copy to take one from';
  return h(
    'span',
    { class: ['thumb', 'thumb-empty'], title, 'data-thumb': sound ? 'sound' : media?.pending ? 'pending' : 'none' },
    sound ? '♪' : '',
  );
}

/**
 * The small picture at the start of the Request cell. Hovering a video's picture plays it muted in a
 * popover; the video element exists only while the popover is shown, so nothing loads until asked.
 */
export function thumbCell(job: JobView, media: ResultMedia | undefined, linkAlive: boolean) {
  const still = stillOf(job, media);
  const source = previewSource(job, media, linkAlive);
  if (!source) return still;
  return h(
    NPopover,
    { trigger: 'hover', placement: 'right', delay: 250, showArrow: false, style: { padding: '4px' } },
    {
      trigger: () => h('span', { class: 'thumb-hover', 'data-preview': source }, [still]),
      default: () =>
        h('video', {
          class: 'hover-preview',
          // The popover lives outside the table (in the page's body), beyond the panel's scoped styles.
          style: { display: 'block', width: '320px', maxHeight: '240px', borderRadius: '4px', background: '#000' },
          src: source,
          muted: true,
          autoplay: true,
          playsinline: true,
          preload: 'auto',
          'data-testid': 'hover-preview',
          onTimeupdate: loopStart,
          onEnded: (event: Event) => void (event.target as HTMLVideoElement).play().catch(() => undefined),
        }),
    },
  );
}
