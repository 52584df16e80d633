import { readFile, stat } from 'node:fs/promises';

/**
 * A sound file's length read in this process (music-metadata), for the hot path of a campaign: every row
 * measures its voiceovers to fit its scenes, and an ffprobe per voiceover was most of a worker's CPU (a
 * process started per file). Answers only for the audio containers whose length is in their headers or
 * frames; anything else (a video, an unknown or broken file) answers null, and the caller asks ffprobe,
 * which also says what is wrong with it.
 */
const CONTAINERS = new Set(['MPEG', 'WAVE', 'FLAC', 'Ogg']);

/**
 * Loaded once: an import() per call went through the module loader every time (under the command line's
 * loader hooks, a round trip to their thread for each of a row's voiceovers).
 */
let reader: Promise<typeof import('music-metadata')> | null = null;

/**
 * Up to this size a file is read whole and parsed in memory (a voiceover is tens or hundreds of kB; a
 * worker measures up to 64 at once, so a long sound is still parsed from its file). Parsed from the file,
 * an MP3's frames were counted a few bytes at a time, two reads a frame, each a round trip to the thread
 * pool: 7% of a campaign worker's main thread in a profile of 1,500 rows.
 */
export const READ_WHOLE_BYTES = 8 * 1024 * 1024;

export async function soundLengthMs(path: string): Promise<number | null> {
  const size = (await stat(path).catch(() => null))?.size ?? null;
  if (size === null) return null;
  if (size <= READ_WHOLE_BYTES) return soundBytesLengthMs(await readFile(path).catch(() => null), path);
  const { parseFile } = await musicMetadata();
  return lengthOf(await parseFile(path, OPTIONS).catch(() => null));
}

/** The length of a sound held in memory; `name` (a path or a link's path) hints at its container. */
export async function soundBytesLengthMs(bytes: Uint8Array | null, name: string): Promise<number | null> {
  if (!bytes) return null;
  const { parseBuffer } = await musicMetadata();
  return lengthOf(await parseBuffer(bytes, { path: name, size: bytes.byteLength }, OPTIONS).catch(() => null));
}

const OPTIONS = { duration: true, skipCovers: true };

function musicMetadata(): Promise<typeof import('music-metadata')> {
  reader ??= import('music-metadata');
  return reader;
}

function lengthOf(found: { format: import('music-metadata').IFormat } | null): number | null {
  const format = found?.format;
  if (!format?.container || !CONTAINERS.has(format.container)) return null;
  if (!format.numberOfChannels || !format.duration || !Number.isFinite(format.duration)) return null;
  return Math.round(format.duration * 1000);
}
