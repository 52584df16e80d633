import { open, type FileHandle } from 'node:fs/promises';

/**
 * What reading an MP4/MOV/M4A's box structure in this process says of a file:
 * - `whole`: its boxes fill the file exactly and hold a movie with tracks and their media data;
 * - `broken`: it is one, but cut short or damaged (`reason` says how, for the user);
 * - `undecided`: not one of them (no `ftyp` first), or a shape this walk leaves to ffprobe.
 */
export type MovieBoxes = { kind: 'whole' } | { kind: 'broken'; reason: string } | { kind: 'undecided' };

interface Box {
  type: string;
  start: number;
  end: number;
  header: number;
}

const UNDECIDED: MovieBoxes = { kind: 'undecided' };
const WHOLE: MovieBoxes = { kind: 'whole' };
/** A movie box bigger than this (hours of many tracks) is read by ffprobe rather than held in memory here. */
const MOVIE_BOX_CAP = 64 * 1024 * 1024;
/** Past this many top-level boxes (a long fragmented stream) one header read each costs more than ffprobe. */
const TOP_BOX_CAP = 10_000;
/** Box types are four printable characters; zero padding or text is not a box. */
const FOUR_CC = /^[\x20-\x7e]{4}$/;
/**
 * The top-level boxes MP4 writers put in files. Only the wording of a refusal uses it: one of these
 * running past the end is a file cut short; anything else there is bytes that are not a box at all.
 */
const KNOWN_TOP_LEVEL = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'uuid', 'meta', 'moof', 'mfra']);

/** The box walk of the file at `path`; a file that cannot be opened is left to ffprobe, which says why. */
export async function movieBoxesOf(path: string): Promise<MovieBoxes> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return UNDECIDED;
  try {
    return await checkMovieBoxes(handle);
  } finally {
    await handle.close();
  }
}

/**
 * Reads the top-level box headers (seeking past each box, so a result of hundreds of MB is not read)
 * and only the movie box itself. The boxes must tile the file exactly, which is the point: ffprobe
 * accepts an MP4 whose media data (or even the end of its movie box) is missing, and the parsers on npm
 * (music-metadata, already a dependency; mp4box, a streaming parser of several MB) read the boxes they
 * want without asking whether the boxes fill the file. So a file that did not arrive whole is refused here.
 */
export async function checkMovieBoxes(handle: FileHandle): Promise<MovieBoxes> {
  const { size } = await handle.stat();
  const head = Buffer.alloc(16);
  const boxes: Box[] = [];
  for (let at = 0; at < size;) {
    if (boxes.length === TOP_BOX_CAP) return UNDECIDED;
    const { bytesRead } = await handle.read(head, 0, head.length, at);
    const box = boxAt(head.subarray(0, bytesRead), at, size);
    if (at === 0 && box?.type !== 'ftyp') return UNDECIDED;
    if (!box || (box.end > size && !KNOWN_TOP_LEVEL.has(box.type)))
      return broken(`the file is damaged: its ${count(size - at)} bytes from byte ${count(at)} are not an MP4 box`);
    if (box.end > size)
      return broken(`the file is cut short: its boxes run to byte ${count(box.end)} but it has ${count(size)} bytes`);
    boxes.push(box);
    at = box.end;
  }
  const types = new Set(boxes.map((box) => box.type));
  // Fragments carry their own sample tables; ffprobe reasons about those, this walk does not.
  if (types.has('moof') || !types.has('mdat')) return UNDECIDED;
  const movies = boxes.filter((box) => box.type === 'moov');
  if (movies.length !== 1) return UNDECIDED;
  const movie = await bodyOf(handle, movies[0]);
  return movie && holdsTracks(movie) ? WHOLE : UNDECIDED;
}

/** The box whose header starts `bytes` (at `at` of a span of `spanSize` bytes), or null if it is none. */
function boxAt(bytes: Buffer, at: number, spanSize: number): Box | null {
  if (bytes.length < 8) return null;
  const type = bytes.toString('latin1', 4, 8);
  const shortSize = bytes.readUInt32BE(0);
  if (!FOUR_CC.test(type) || (shortSize === 1 && bytes.length < 16)) return null;
  const header = shortSize === 1 ? 16 : 8;
  // Size 0 means "to the end of the file"; size 1 means a 64-bit size follows the type.
  const length = shortSize === 0 ? spanSize - at : shortSize === 1 ? Number(bytes.readBigUInt64BE(8)) : shortSize;
  return length < header ? null : { type, start: at, end: at + length, header };
}

async function bodyOf(handle: FileHandle, box: Box): Promise<Buffer | null> {
  const length = box.end - box.start - box.header;
  if (length > MOVIE_BOX_CAP) return null;
  const body = Buffer.alloc(length);
  const { bytesRead } = await handle.read(body, 0, length, box.start + box.header);
  return bytesRead === length ? body : null;
}

/** A movie header and at least one track, each track with its header and media description. */
function holdsTracks(movie: Buffer): boolean {
  const children = childrenOf(movie);
  if (!children?.some((box) => box.type === 'mvhd')) return false;
  const tracks = children.filter((box) => box.type === 'trak');
  return (
    tracks.length > 0 &&
    tracks.every((track) => {
      const parts = childrenOf(movie.subarray(track.start + track.header, track.end));
      return parts?.some((box) => box.type === 'tkhd') && parts.some((box) => box.type === 'mdia');
    })
  );
}

/** The boxes that fill `body` exactly, or null when they do not. */
function childrenOf(body: Buffer): Box[] | null {
  const found: Box[] = [];
  for (let at = 0; at < body.length;) {
    const box = boxAt(body.subarray(at, at + 16), at, body.length);
    if (!box || box.end > body.length) return null;
    found.push(box);
    at = box.end;
  }
  return found;
}

function broken(reason: string): MovieBoxes {
  return { kind: 'broken', reason };
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
