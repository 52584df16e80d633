/**
 * The one list of media file types the studio knows by extension: what a link or a file name ending
 * in .png / .mp4 / .mp3 is. Used where no probe has answered yet (a pasted link, a file dialog's
 * filter, the canvas's first guess). The service's own narrower rules (the talking avatar's accepted
 * types) stay with the interface rules in composition/rules.ts.
 */
export type MediaKindName = 'image' | 'video' | 'audio';

export const MEDIA_EXTENSIONS: Readonly<Record<MediaKindName, readonly string[]>> = {
  image: ['png', 'jpg', 'jpeg', 'webp', 'gif', 'bmp'],
  video: ['mp4', 'mov', 'avi', 'webm', 'mkv', 'm4v'],
  audio: ['mp3', 'wav', 'm4a', 'aac', 'ogg', 'flac'],
};

/** An animated GIF plays like a clip, so a still is a picture of any other type. */
const STILL_EXTENSIONS = MEDIA_EXTENSIONS.image.filter((ext) => ext !== 'gif');

/** The lower-case extension of a link or file name, without its query or fragment; '' when none. */
export function fileExtension(reference: string): string {
  const path = reference.split(/[?#]/)[0];
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The kind a link or file name's extension says, or null for one the studio does not know. */
export function mediaKindByExtension(reference: string): MediaKindName | null {
  const ext = fileExtension(reference);
  if (!ext) return null;
  for (const kind of ['image', 'video', 'audio'] as const) if (MEDIA_EXTENSIONS[kind].includes(ext)) return kind;
  return null;
}

/** Whether the extension names a still picture. */
export function isStillByExtension(reference: string): boolean {
  return STILL_EXTENSIONS.includes(fileExtension(reference));
}
