import { reactive } from 'vue';
import type { LiveFace } from '@common/bridge/faces';
import type { MediaKindName } from '@common/media-types';
import type { DetectedFace } from './face-frames';

/** Faces picked in face detection for live face swap: their opts come from the detected landmarks, never typed. */
export const chosenFaces = reactive<LiveFace[]>([]);

export function chooseFace(face: LiveFace): string | null {
  if (!/^https?:\/\//i.test(face.path))
    return 'Live face swap needs a face image the service can download: detect faces in a link, not a local file.';
  if (!chosenFaces.some((f) => f.path === face.path && f.opts === face.opts)) chosenFaces.push(face);
  return null;
}

/** Turns a local file into a link on the active storage (uploads.linkLocalMedia). */
export type LinkLocal = (reference: string) => Promise<string>;

/**
 * The face picture a live session is given for a detected face, with landmarks that belong to that
 * picture: the source itself when it is a picture link; otherwise the service's crop of the face (with
 * the crop's own landmarks); a local picture without a crop is uploaded first. A video is never it:
 * the service takes a face image, and a clip's URL leaves the session with no face to swap in.
 */
export async function liveFaceFor(
  source: { url: string; kind: MediaKindName | null },
  face: DetectedFace,
  linkLocal: LinkLocal,
): Promise<LiveFace | { error: string }> {
  const remote = /^https?:\/\//i.test(source.url);
  if (source.kind === 'image' && remote) return { path: source.url, opts: face.landmarksStr };
  if (face.faceUrl && face.cropLandmarks) return { path: face.faceUrl, opts: face.cropLandmarks };
  if (source.kind === 'image') return { path: await linkLocal(source.url), opts: face.landmarksStr };
  return {
    error:
      'Live face swap needs a picture of the face, not a video: tick "Cropped faces" and detect again, or detect in a photo.',
  };
}
