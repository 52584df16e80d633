import { reactive } from 'vue';
import type { LiveFace } from '@common/bridge/faces';

/** Faces picked in face detection for live face swap: their opts come from the detected landmarks, never typed. */
export const chosenFaces = reactive<LiveFace[]>([]);

export function chooseFace(face: LiveFace): string | null {
  if (!/^https?:\/\//i.test(face.path)) return 'Live face swap needs a face image the service can download: detect faces in a link, not a local file.';
  if (!chosenFaces.some((f) => f.path === face.path && f.opts === face.opts)) chosenFaces.push(face);
  return null;
}
