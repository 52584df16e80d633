import type { DetectResult } from '@common/bridge/faces';

/** The six landmarks in the order the service gives them. */
export const LANDMARK_LABELS = [
  'left eye',
  'right eye',
  'nose tip',
  'mouth centre',
  'left mouth corner',
  'right mouth corner',
] as const;
export const LANDMARK_SHORT = ['LE', 'RE', 'N', 'M', 'ML', 'MR'] as const;

export interface DetectedFace {
  index: number;
  region: number[];
  landmarks: Array<[number, number]>;
  landmarksStr: string;
  faceUrl: string | null;
  /** The landmarks within the cropped face picture (faceUrl), when the service made one. */
  cropLandmarks: string | null;
}

export interface AnalysedFrame {
  key: string;
  /** Seconds into a video or GIF; null for a still image. */
  time: number | null;
  faces: DetectedFace[];
  removed: number[][];
}

/** The answer's frames in order, each face's parallel arrays zipped into one object. */
export function framesOf(result: DetectResult): AnalysedFrame[] {
  return Object.entries(result.faces_obj ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([key, frame]) => ({
      key,
      time: frame.frame_time,
      removed: frame.removed ?? [],
      faces: frame.region.map((region, index) => ({
        index,
        region,
        landmarks: frame.landmarks[index] ?? [],
        landmarksStr: frame.landmarks_str[index] ?? '',
        faceUrl: frame.face_urls?.[index] ?? null,
        cropLandmarks: frame.crop_landmarks?.[index] ?? null,
      })),
    }));
}

/** "Copy landmarks": one line per face, the value live face swap takes as opts. */
export function landmarksText(frame: AnalysedFrame): string {
  return frame.faces.map((f) => f.landmarksStr).join('\n');
}

export const formatTime = (seconds: number | null): string =>
  seconds === null ? 'still image' : `${seconds.toFixed(2)} s`;
