import { readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { MediaInfo } from '../../common/composition/media-info';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The last chunk of every whole PNG: length 0, type IEND, its CRC. */
const IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
/** Larger files go to ffprobe (a text picture is a few kilobytes; nothing is gained reading big ones here). */
const MAX_BYTES = 4 * 1024 * 1024;

/**
 * What ffprobe says of a still PNG, read in this process: a campaign uploads a picture of its text for
 * every row, and an ffprobe per upload was a process started from the host's large one each time (about
 * 50 ms of its thread, the largest cost of a 500-row campaign on the built-in sandbox). Only a whole,
 * plain PNG is read here: its signature, an IHDR of a size whose CRC holds, every chunk's length in
 * bounds up to the IEND that ends the file, and no animation (acTL). Anything else answers null and
 * the caller asks ffprobe, which also says what is wrong with it. A test checks the facts against
 * ffprobe's for the same files.
 */
export async function pngFacts(path: string): Promise<MediaInfo | null> {
  const bytes = await readFile(path).catch(() => null);
  if (!bytes || bytes.length > MAX_BYTES || bytes.length < SIGNATURE.length + 25 + IEND.length) return null;
  if (!bytes.subarray(0, 8).equals(SIGNATURE) || !bytes.subarray(bytes.length - 12).equals(IEND)) return null;
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  if (crc32(bytes.subarray(12, 29)) !== bytes.readUInt32BE(29)) return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width === 0 || height === 0) return null;
  // Walk the chunks: each in bounds, none an animation's, image data present, the IEND the file's end.
  let at = 8;
  let data = false;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length || type === 'acTL') return null;
    data ||= type === 'IDAT';
    if (type === 'IEND') return at + 12 === bytes.length && data ? facts(width, height, bytes.length) : null;
    at += 12 + length;
  }
  return null;
}

function facts(width: number, height: number, sizeBytes: number): MediaInfo {
  return {
    kind: 'image',
    durationMs: null,
    width,
    height,
    fps: null,
    videoCodec: 'png',
    audioCodec: null,
    hasVideo: true,
    hasAudio: false,
    sizeBytes,
    formatName: 'png_pipe',
    format: 'png',
    rotation: 0,
  };
}
