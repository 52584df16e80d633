/**
 * A JPEG's EXIF orientation: how the camera's pixels must be turned to stand upright. Phones store
 * pictures sideways and say so in this tag; browsers honour it, and so does ffmpeg 5.1 on input, but
 * the npm ffmpeg 4.1 ignores it. So the studio reads the tag itself and turns pictures with its own
 * filters (after `-noautorotate`), and every ffmpeg generation shows the same picture the canvas does.
 *
 * Only the one tag is read (IFD0's 0x0112), so this stays a short walk over the JPEG's segments rather
 * than a dependency on a full EXIF library.
 */

/** 1 upright; 2 mirrored; 3 upside down; 4 flipped; 5..8 the sideways ones (6: turn 90° clockwise). */
export type ExifOrientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** How many leading bytes of a file hold its EXIF block (APP1 is at most 64 KB and comes first). */
export const ORIENTATION_HEAD_BYTES = 128 * 1024;

const ORIENTATION_TAG = 0x0112;

/** The orientation a JPEG's head says; 1 for anything that is not a JPEG or carries no tag. */
export function jpegOrientation(head: Uint8Array): ExifOrientation {
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) return 1;
  let at = 2;
  while (at + 4 <= head.length) {
    if (head[at] !== 0xff) return 1;
    const marker = head[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // The image data starts (SOS) or ends (EOI): EXIF comes before either.
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = (head[at + 2] << 8) | head[at + 3];
    if (length < 2) return 1;
    if (marker === 0xe1 && isExifHeader(head, at + 4))
      return tiffOrientation(head, at + 10, Math.min(head.length, at + 2 + length));
    at += 2 + length;
  }
  return 1;
}

function isExifHeader(bytes: Uint8Array, at: number): boolean {
  const exif = [0x45, 0x78, 0x69, 0x66, 0, 0];
  return exif.every((b, i) => bytes[at + i] === b);
}

function tiffOrientation(bytes: Uint8Array, tiff: number, end: number): ExifOrientation {
  if (tiff + 8 > end) return 1;
  const little = bytes[tiff] === 0x49 && bytes[tiff + 1] === 0x49;
  const big = bytes[tiff] === 0x4d && bytes[tiff + 1] === 0x4d;
  if (!little && !big) return 1;
  const u16 = (at: number) => (little ? bytes[at] | (bytes[at + 1] << 8) : (bytes[at] << 8) | bytes[at + 1]);
  const u32 = (at: number) => (little ? u16(at) + u16(at + 2) * 0x10000 : u16(at) * 0x10000 + u16(at + 2));
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? (value as ExifOrientation) : 1;
  }
  return 1;
}

/** Whether the picture stands on its side: its upright width is its stored height. */
export function isSideways(orientation: ExifOrientation): boolean {
  return orientation >= 5;
}

/** ffmpeg filters that stand a picture of this orientation upright ('' when it already is). */
export function uprightFilter(orientation: ExifOrientation): string {
  return UPRIGHT[orientation];
}

const UPRIGHT: Record<ExifOrientation, string> = {
  1: '',
  2: 'hflip',
  3: 'hflip,vflip',
  4: 'vflip',
  5: 'transpose=0', // mirrored along the main diagonal
  6: 'transpose=1',
  7: 'transpose=3',
  8: 'transpose=2',
};
