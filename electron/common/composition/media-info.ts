import { z } from 'zod';
import { MEDIA_FORMATS, detectFormat, kindOf } from './media-format';

/**
 * What ffprobe tells us about a media file, reduced to what the studio uses: kind, duration, display
 * size (rotation applied), frame rate, codecs and whether there is sound. Parsing is pure so it is
 * tested against real ffprobe JSON (test/fixtures/composition/probe).
 */
export const MediaInfo = z.object({
  kind: z.enum(['video', 'audio', 'image']),
  durationMs: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  fps: z.number().nullable(),
  videoCodec: z.string().nullable(),
  audioCodec: z.string().nullable(),
  hasVideo: z.boolean(),
  hasAudio: z.boolean(),
  sizeBytes: z.number().nullable(),
  /** ffprobe's demuxer name: for logs and diagnosis only, never shown (see `format`). */
  formatName: z.string(),
  /** What the file is, from its content (media-format.ts); formatLabel() names it for people. */
  format: z.enum(MEDIA_FORMATS),
  /** Display rotation in degrees, 0..359, as ffprobe reports it; 90/270 swap width and height. */
  rotation: z.number(),
});
export type MediaInfo = z.infer<typeof MediaInfo>;

/**
 * Whether ffprobe found real media rather than a guess from the file name: ffprobe opens any "x.png" as
 * a picture of 0×0, so a picture or video must have a size and a sound a duration.
 */
export function isRealMedia(info: MediaInfo): boolean {
  if (info.kind === 'audio') return (info.durationMs ?? 0) > 0;
  return (info.width ?? 0) > 0 && (info.height ?? 0) > 0;
}

export class MediaProbeError extends Error {
  override name = 'MediaProbeError';
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
}

interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; size?: string; tags?: Record<string, string> };
}

/** Turns `ffprobe -print_format json -show_format -show_streams` output into MediaInfo. */
export function parseFfprobeJson(input: string | object): MediaInfo {
  let data: ProbeOutput;
  try {
    data = (typeof input === 'string' ? JSON.parse(input) : input) as ProbeOutput;
  } catch {
    throw new MediaProbeError('ffprobe did not return JSON');
  }
  const streams = Array.isArray(data.streams) ? data.streams : [];
  // Cover art in an audio file is a "video" stream flagged attached_pic: it is not picture content.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video && !audio) throw new MediaProbeError('not a media file (no audio or video stream)');

  const formatName = data.format?.format_name ?? 'unknown';
  const seconds = num(data.format?.duration) ?? num(video?.duration) ?? num(audio?.duration);
  const frames = num(video?.nb_frames);
  const format = detectFormat({
    demuxer: formatName,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    brand: data.format?.tags?.major_brand ?? null,
  });
  const kind = kindOf(format, Boolean(video), frames);
  const isImage = kind === 'image';
  const rotation = rotationOf(video);
  const sideways = Math.abs(rotation) % 180 === 90;
  const width = video?.width ?? null;
  const height = video?.height ?? null;

  return {
    kind,
    durationMs: isImage || seconds === null ? null : Math.round(seconds * 1000),
    width: sideways ? height : width,
    height: sideways ? width : height,
    fps: isImage || !video ? null : frameRate(video),
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
    sizeBytes: num(data.format?.size),
    formatName,
    format,
    rotation,
  };
}

function num(value: string | number | undefined): number | null {
  if (value === undefined || value === null || value === 'N/A') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function ratio(value: string | undefined): number | null {
  if (!value) return null;
  const [a, b] = value.split('/').map(Number);
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0 || a === 0) return null;
  return Math.round((a / b) * 1000) / 1000;
}

function frameRate(stream: ProbeStream): number | null {
  return ratio(stream.avg_frame_rate) ?? ratio(stream.r_frame_rate);
}

function rotationOf(stream: ProbeStream | undefined): number {
  if (!stream) return 0;
  const side = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  if (typeof side === 'number') return normaliseDegrees(side);
  const tag = num(stream.tags?.rotate);
  return tag === null ? 0 : normaliseDegrees(tag);
}

function normaliseDegrees(value: number): number {
  return ((Math.round(value) % 360) + 360) % 360;
}
