/**
 * What a file is, decided from what ffprobe read in it (demuxer, codecs, container brand) and never from
 * its name or from a duration: ffprobe gives a JPEG read by `image2` a 0.04 s "duration", which is one
 * frame of its default 25 fps, not evidence of a video.
 *
 * The service's own words decide where animated formats fall: GIF is a face-detection input with frame
 * times (a video-like source) unless it holds a single frame; WebP is listed among pictures, and neither
 * ffmpeg 4.1 nor 5.1 can decode an animated WebP, so every WebP is a picture. HEIC and AVIF are named so
 * they can be refused plainly: the service lists neither, and no ffmpeg the studio may run decodes a
 * HEIC grid, so converting would fail on exactly the files phones write.
 */

export const MEDIA_FORMATS = [
  'jpeg',
  'png',
  'webp',
  'bmp',
  'gif',
  'tiff',
  'heic',
  'avif',
  'picture',
  'mp4',
  'mov',
  'webm',
  'mkv',
  'avi',
  'video',
  'mp3',
  'wav',
  'm4a',
  'aac',
  'ogg',
  'flac',
  'sound',
  'unknown',
] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];
export type MediaKind = 'image' | 'video' | 'audio';

const LABELS: Record<MediaFormat, string> = {
  jpeg: 'JPEG picture',
  png: 'PNG picture',
  webp: 'WebP picture',
  bmp: 'BMP picture',
  gif: 'GIF',
  tiff: 'TIFF picture',
  heic: 'HEIC picture',
  avif: 'AVIF picture',
  picture: 'picture of an unusual type',
  mp4: 'MP4 video',
  mov: 'MOV (QuickTime) video',
  webm: 'WebM video',
  mkv: 'Matroska (MKV) video',
  avi: 'AVI video',
  video: 'video of an unusual type',
  mp3: 'MP3 sound',
  wav: 'WAV sound',
  m4a: 'M4A (AAC) sound',
  aac: 'AAC sound',
  ogg: 'Ogg sound',
  flac: 'FLAC sound',
  sound: 'sound of an unusual type',
  unknown: 'file of an unknown type',
};

/** A format as a person would name it: "JPEG picture", "WebM video". */
export function formatLabel(format: MediaFormat): string {
  return LABELS[format];
}

/** The same, with its article: "a JPEG picture", "an MP4 video". */
export function describeFormat(format: MediaFormat): string {
  return `${articleFor(format)} ${LABELS[format]}`;
}

export function articleFor(format: MediaFormat): 'a' | 'an' {
  return AN.has(format) ? 'an' : 'a';
}
const AN: ReadonlySet<MediaFormat> = new Set(['avif', 'mp4', 'avi', 'mp3', 'm4a', 'aac', 'ogg']);

/** Pictures a person would say are "not a picture we take" rather than "not a picture". */
export const UNSUPPORTED_PICTURES: ReadonlySet<MediaFormat> = new Set(['heic', 'avif']);

const PICTURE_CODECS: Record<string, MediaFormat> = {
  mjpeg: 'jpeg',
  jpeg: 'jpeg',
  jpegls: 'jpeg',
  png: 'png',
  apng: 'png',
  webp: 'webp',
  bmp: 'bmp',
  gif: 'gif',
  tiff: 'tiff',
};
/** Demuxers that read one picture per file (ffmpeg's image2 and its per-codec "_pipe" siblings). */
const PICTURE_DEMUXERS = /(^|,)(image2|\w+_pipe|png|apng|webp|bmp|tiff)(,|$)/;
const HEIF_BRANDS = /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/;
const AVIF_BRANDS = /^(avif|avis)$/;

export interface FormatFacts {
  /** ffprobe's format_name, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  demuxer: string;
  videoCodec: string | null;
  audioCodec: string | null;
  /** The ISO-BMFF major brand (format tag major_brand), when there is one. */
  brand: string | null;
}

export function detectFormat(facts: FormatFacts): MediaFormat {
  const { demuxer, videoCodec, audioCodec } = facts;
  const brand = (facts.brand ?? '').trim().toLowerCase();
  if (PICTURE_DEMUXERS.test(demuxer)) return PICTURE_CODECS[videoCodec ?? ''] ?? 'picture';
  if (demuxer === 'gif') return 'gif';
  if (demuxer.split(',').includes('mov')) {
    if (HEIF_BRANDS.test(brand)) return 'heic';
    if (AVIF_BRANDS.test(brand)) return 'avif';
    if (brand === 'qt') return 'mov';
    if (!videoCodec || brand === 'm4a' || brand === 'm4b') return videoCodec ? 'mp4' : 'm4a';
    return 'mp4';
  }
  if (demuxer === 'matroska,webm') {
    if (!videoCodec) return 'sound';
    const webm = ['vp8', 'vp9', 'av1'].includes(videoCodec) && ['opus', 'vorbis', null].includes(audioCodec);
    return webm ? 'webm' : 'mkv';
  }
  const simple: Record<string, MediaFormat> = {
    avi: 'avi',
    mp3: 'mp3',
    wav: 'wav',
    aac: 'aac',
    ogg: 'ogg',
    flac: 'flac',
  };
  if (simple[demuxer]) return simple[demuxer];
  if (videoCodec) return 'video';
  return audioCodec ? 'sound' : 'unknown';
}

/**
 * Picture, video or sound. A picture is what a picture format holds (a still GIF too); an animated GIF
 * is a video; cover art in a sound file has already been set aside by the caller.
 */
export function kindOf(format: MediaFormat, hasVideo: boolean, frames: number | null): MediaKind {
  if (!hasVideo) return 'audio';
  if (format === 'gif') return frames !== null && frames <= 1 ? 'image' : 'video';
  if (['jpeg', 'png', 'webp', 'bmp', 'tiff', 'heic', 'avif', 'picture'].includes(format)) return 'image';
  return 'video';
}
