import type { MediaInfo } from '../composition/media-info';

function size(bytes: number): string {
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * What the tools show of a measured input, in order: length, picture size, frame rate, file size and,
 * for a video, whether it carries sound ("3.0 s", "640×360", "25 fps", "2.1 MB", "with sound").
 */
export function mediaFacts(info: MediaInfo): string[] {
  const facts: string[] = [];
  if (info.durationMs !== null && info.kind !== 'image') facts.push(`${(info.durationMs / 1000).toFixed(1)} s`);
  if (info.width && info.height) facts.push(`${info.width}×${info.height}`);
  if (info.fps !== null && info.kind === 'video') facts.push(`${Math.round(info.fps * 100) / 100} fps`);
  if (info.sizeBytes !== null) facts.push(size(info.sizeBytes));
  if (info.kind === 'video') facts.push(info.hasAudio ? 'with sound' : 'no sound');
  return facts;
}
