import { h } from 'vue';
import { isAudioKind, type JobView, type ResultMedia } from '@common/bridge';
import { formatBytes } from '@common/bridge';
import { previewHandlers } from './hover-preview';

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
 * The small picture at the start of the Request cell. Hovering a video's picture plays it muted in the
 * table's one preview (HoverPreview.vue); the video element exists only while shown, so nothing loads
 * until asked.
 */
export function thumbCell(job: JobView, media: ResultMedia | undefined, linkAlive: boolean) {
  const still = stillOf(job, media);
  const source = previewSource(job, media, linkAlive);
  if (!source) return still;
  return h('span', { class: 'thumb-hover', 'data-preview': source, ...previewHandlers(source) }, [still]);
}
