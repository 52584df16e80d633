import { open, rename, rm } from 'node:fs/promises';
import {
  ORIENTATION_HEAD_BYTES,
  jpegOrientation,
  uprightFilter,
  type ExifOrientation,
} from '../../common/composition/exif-orientation';
import type { ProcessRunner } from './process';

/**
 * One rule for pictures a camera stored sideways: they are shown, previewed and sent upright, the way
 * a browser shows them. Links are turned by the compositor as they are drawn (the tag is read here);
 * a local picture taken in is rewritten upright once, with no tag left, so its measured size, its
 * canvas still and the bytes uploaded for the service all agree whatever ffmpeg runs.
 */
export async function readOrientation(path: string): Promise<ExifOrientation> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(ORIENTATION_HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return jpegOrientation(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

export interface UprightDeps {
  runner: ProcessRunner;
  ffmpeg: () => Promise<string>;
}

/**
 * Turns the JPEG at `path` upright in place when its EXIF tag says it is not; true when it did. The
 * copy is made with `-noautorotate` and the studio's own filter, so ffmpeg 4.1 (which ignores the tag)
 * and 5.1 (which applies it) write the same picture; ffmpeg writes no EXIF, so the tag is gone.
 */
export async function makeUpright(deps: UprightDeps, path: string, signal?: AbortSignal): Promise<boolean> {
  const orientation = await readOrientation(path);
  if (orientation === 1) return false;
  const part = `${path}.upright.jpg`;
  const args = [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-loglevel',
    'error',
    '-noautorotate',
    '-i',
    path,
    '-vf',
    uprightFilter(orientation),
    '-frames:v',
    '1',
    '-q:v',
    '2',
    '-f',
    'image2',
    part,
  ];
  const result = await deps.runner.run(await deps.ffmpeg(), args, { signal });
  if (result.code !== 0) {
    await rm(part, { force: true });
    throw new Error(
      `could not turn the picture upright: ${result.stderr.trim().split('\n').at(-1) ?? 'ffmpeg failed'}`,
    );
  }
  await rename(part, path);
  return true;
}
