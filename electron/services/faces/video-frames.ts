import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VideoFrame, VideoFramesRequest } from '../../common/bridge/faces';
import type { MediaInfo } from '../../common/composition/media-info';

export interface VideoFramesDeps {
  /** The media calls of this host: they read a local file only as the user granted it. */
  probe(reference: string): Promise<MediaInfo>;
  frame(reference: string, atMs: number, width: number): Promise<{ dataUrl: string }>;
  /** Where taken frames are kept (they are uploaded like any local picture before analysis). */
  dir: string;
  grant(path: string): string;
}

/** ffmpeg's scale filter is asked for the video's own width, within what media.frame accepts. */
const MAX_WIDTH = 1920;

/** Stills from a local video at the chosen times, each a granted local picture the page can have uploaded. */
export async function takeVideoFrames(deps: VideoFramesDeps, request: VideoFramesRequest): Promise<VideoFrame[]> {
  const info = await deps.probe(request.video);
  if (info.kind !== 'video' || !info.width)
    throw new Error('Frames can be taken from a video only; this file has no picture track.');
  const seconds = (info.durationMs ?? 0) / 1000;
  const late = request.times.filter((t) => t >= seconds);
  if (late.length > 0)
    throw new Error(
      `The video lasts ${seconds.toFixed(2)} s: there is no frame at ${late.map((t) => `${t} s`).join(', ')}.`,
    );
  const width = Math.min(Math.max(info.width, 16), MAX_WIDTH);
  await mkdir(deps.dir, { recursive: true });
  const batch = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const frames: VideoFrame[] = [];
  for (const time of request.times) {
    const { dataUrl } = await deps.frame(request.video, Math.round(time * 1000), width);
    const path = join(deps.dir, `${batch}-${Math.round(time * 1000)}ms.jpg`);
    await writeFile(path, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
    frames.push({ reference: deps.grant(path), time, dataUrl });
  }
  return frames;
}
