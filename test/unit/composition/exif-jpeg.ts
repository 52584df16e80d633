import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Test pictures as phones write them: a JPEG whose pixels are stored sideways, with an EXIF
 * orientation tag saying how to stand it up. The APP1 block is written here byte by byte (a minimal
 * TIFF header and one IFD0 entry), so no exiftool is needed.
 */
export function exifApp1(orientation: number, byteOrder: 'II' | 'MM' = 'II'): Buffer {
  const little = byteOrder === 'II';
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write(byteOrder, 0, 'latin1');
  const u16 = (value: number, at: number) => (little ? tiff.writeUInt16LE(value, at) : tiff.writeUInt16BE(value, at));
  const u32 = (value: number, at: number) => (little ? tiff.writeUInt32LE(value, at) : tiff.writeUInt32BE(value, at));
  u16(42, 2);
  u32(8, 4); // IFD0 follows the header
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14);
  u16(orientation, 18);
  u32(0, 22); // no next IFD
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
  return Buffer.concat([head, body]);
}

/** The JPEG with an EXIF orientation block right after its start-of-image marker. */
export function withOrientation(jpeg: Buffer, orientation: number, byteOrder: 'II' | 'MM' = 'II'): Buffer {
  return Buffer.concat([jpeg.subarray(0, 2), exifApp1(orientation, byteOrder), jpeg.subarray(2)]);
}

/**
 * A 64×32 JPEG stored as a camera held sideways would, in four quadrants (top: red, blue; bottom: green,
 * yellow), tagged orientation 6 (turn 90° clockwise). Upright it is 32×64 with green top left, red top
 * right, yellow bottom left and blue bottom right; each wrong turn or mirror puts other colours there.
 */
export function sidewaysPhoto(dir: string, ffmpeg: string, name = 'sideways.jpg'): string {
  const plain = join(dir, `plain-${name}`);
  const inputs = ['0xff0000', '0x0000ff', '0x00ff00', '0xffff00'].flatMap((c) => [
    '-f',
    'lavfi',
    '-i',
    `color=c=${c}:s=32x16`,
  ]);
  const graph = '[0][1]hstack[top];[2][3]hstack[bottom];[top][bottom]vstack';
  const made = spawnSync(
    ffmpeg,
    ['-v', 'error', '-y', ...inputs, '-filter_complex', graph, '-frames:v', '1', '-q:v', '2', plain],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`could not make a test JPEG: ${made.stderr}`);
  const path = join(dir, name);
  writeFileSync(path, withOrientation(readFileSync(plain), 6));
  return path;
}

/** Where each colour of sidewaysPhoto stands when it is upright. */
export const UPRIGHT_QUADRANTS = {
  topLeft: [0, 255, 0],
  topRight: [255, 0, 0],
  bottomLeft: [255, 255, 0],
  bottomRight: [0, 0, 255],
} as const;

/** Both ffmpeg generations the studio may run: the npm 4.1 fallback and the system's, when present. */
export function ffmpegGenerations(): Array<{ name: string; bin: string }> {
  const all = [
    { name: 'npm ffmpeg 4.1', bin: join(process.cwd(), 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg') },
    { name: 'system ffmpeg', bin: '/usr/bin/ffmpeg' },
  ];
  return all.filter((g) => existsSync(g.bin));
}
