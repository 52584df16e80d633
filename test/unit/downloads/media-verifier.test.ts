// The check a saved result passes before it takes its name reads MP4/MOV/M4A boxes in this process. On
// every file users have (the corpus, and movies cut and edited the ways downloads go wrong) it must accept
// exactly what ffprobe accepts, except movies whose boxes do not fill the file (cut short, bytes after
// the end), which ffprobe lets through; and a whole movie must start no process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaVerifier } from '../../../electron/services/downloads/verify';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { CORPUS_FILES, ensureCorpus } from '../../media-corpus/make-corpus';
import { mediaToolGenerations } from '../../media-tools-env';

const WHOLE_CORPUS_MOVIES = ['h264.mp4', 'hevc.mp4', 'phone.mov', 'vfr.mp4', 'fps60.mp4', 'tenbit.mp4', 'aac.m4a'];

describe.each(mediaToolGenerations())('the saved-file check, against $label', ({ ffmpeg, ffprobe }) => {
  let corpus: string;
  let scratch: string;
  // The files made here have names of their own, so a name is either the corpus's or the scratch folder's.
  const file = (name: string): string => (existsSync(join(scratch, name)) ? join(scratch, name) : join(corpus, name));
  const made: Record<string, (movies: { moovLast: Buffer; faststart: Buffer }) => Buffer> = {
    'faststart-cut.mp4': ({ faststart }) => faststart.subarray(0, Math.floor(faststart.length * 0.6)),
    'moov-cut.mp4': ({ moovLast }) => moovLast.subarray(0, moovLast.length - 40),
    'junk-after.mp4': ({ moovLast }) => Buffer.concat([moovLast, Buffer.from('and then some bytes that are no box\n')]),
    'zeros-at-end.mp4': ({ moovLast }) => Buffer.concat([moovLast, Buffer.alloc(4096)]),
    'page.mp4': () => Buffer.from('<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>\n'),
    'large-size.mp4': ({ moovLast }) => withLargeMediaBox(moovLast),
    'large-size-cut.mp4': ({ moovLast }) => withLargeMediaBox(moovLast).subarray(0, 20_000),
    'to-the-end.mp4': ({ faststart }) => withSizeZero(faststart, 'mdat'),
    'no-track.mp4': ({ faststart }) => renamedInMovie(faststart, 'trak'),
    'no-movie-header.mp4': ({ faststart }) => renamedInMovie(faststart, 'mvhd'),
    'no-track-media.mp4': ({ faststart }) => renamedInMovie(faststart, 'mdia'),
    'track-past-movie.mp4': ({ faststart }) => withTrackPastMovie(faststart),
    'no-media-data.mp4': ({ faststart }) => renamed(faststart, boxStart(faststart, 'mdat'), 'free'),
  };

  beforeAll(() => {
    corpus = ensureCorpus();
    scratch = mkdtempSync(join(tmpdir(), 'media-verifier-'));
    // Remuxed by this generation's ffmpeg: its own box layout, as the service's results have theirs.
    for (const [name, flags] of [
      ['moov-last.mp4', []],
      ['faststart.mp4', ['-movflags', '+faststart']],
      ['fragmented.mp4', ['-movflags', 'frag_keyframe+empty_moov']],
    ] as const) {
      const remux = spawnSyncChecked(ffmpeg, [
        '-i',
        join(corpus, 'h264.mp4'),
        '-c',
        'copy',
        ...flags,
        join(scratch, name),
      ]);
      expect(remux.status, remux.stderr).toBe(0);
    }
    const movies = { moovLast: read('moov-last.mp4'), faststart: read('faststart.mp4') };
    for (const [name, make] of Object.entries(made)) writeFileSync(join(scratch, name), make(movies));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const read = (name: string): Buffer => readFileSync(join(scratch, name));
  // ffprobe's word on a file, asked once per file: no file changes after beforeAll, and several tests hold
  // the verifier against the same file's answer (the verifier itself is asked afresh every time).
  const ffprobeAnswers = new Map<string, Promise<string>>();
  const ffprobeSays = (name: string): Promise<string> => {
    if (!ffprobeAnswers.has(name))
      ffprobeAnswers.set(name, outcome(new MediaProber(async () => ffprobe, new ProcessRunner()).probe(file(name))));
    return ffprobeAnswers.get(name)!;
  };
  /** The verifier's answer on a fresh prober (no remembered answers) and the processes it started. */
  async function verified(name: string): Promise<{ says: string; spawned: number }> {
    let spawned = 0;
    const runner = new ProcessRunner((bin, args, options) => {
      spawned += 1;
      return spawn(bin, args, options);
    });
    const prober = new MediaProber(async () => ffprobe, runner);
    const says = await outcome(mediaVerifier((path) => prober.probe(path))(file(name)));
    return { says, spawned };
  }

  it.each(CORPUS_FILES)('%s: accepted or refused as ffprobe does', async (name) => {
    const [ours, theirs] = [(await verified(name)).says, await ffprobeSays(name)];
    expect(ours === 'accepted', `${ours} / ffprobe: ${theirs}`).toBe(theirs === 'accepted');
  });

  it('checks whole movies in this process: moov first or last, a 64-bit size, a last box "to the end"', async () => {
    const movies = [...WHOLE_CORPUS_MOVIES, 'moov-last.mp4', 'faststart.mp4', 'large-size.mp4', 'to-the-end.mp4'];
    for (const name of movies) {
      expect(await verified(name), name).toEqual({ says: 'accepted', spawned: 0 });
      expect(await ffprobeSays(name), name).toBe('accepted');
    }
  });

  it('refuses a movie cut short, which ffprobe accepts, saying where its boxes end', async () => {
    expect(await ffprobeSays('faststart-cut.mp4')).toBe('accepted');
    for (const name of ['faststart-cut.mp4', 'moov-cut.mp4', 'large-size-cut.mp4']) {
      const { says, spawned } = await verified(name);
      expect(says).toMatch(
        new RegExp(
          `^cannot read ${name}: the file is cut short: its boxes run to byte [\\d,]+ but it has [\\d,]+ bytes$`,
        ),
      );
      expect(spawned).toBe(0);
    }
  });

  it('says a movie cut before its movie box is cut short, not only that ffprobe found no moov', async () => {
    expect(await ffprobeSays('truncated.mp4')).toMatch(/moov atom not found|Invalid data/);
    expect((await verified('truncated.mp4')).says).toBe(
      'cannot read truncated.mp4: the file is cut short: its boxes run to byte 47,705 but it has 2,048 bytes',
    );
  });

  it('refuses bytes after the last box, which ffprobe ignores', async () => {
    expect(await ffprobeSays('junk-after.mp4')).toBe('accepted');
    expect((await verified('junk-after.mp4')).says).toMatch(
      /^cannot read junk-after\.mp4: the file is damaged: its 36 bytes from byte [\d,]+ are not an MP4 box$/,
    );
    // Zeros after the end (a file padded to a block, or sized before all its bytes came) read as a box
    // of size 0, "to the end", with no type: not a box either.
    expect(await ffprobeSays('zeros-at-end.mp4')).toBe('accepted');
    expect((await verified('zeros-at-end.mp4')).says).toMatch(
      /^cannot read zeros-at-end\.mp4: the file is damaged: its 4,096 bytes from byte [\d,]+ are not an MP4 box$/,
    );
  });

  it("leaves what is not an MP4 to ffprobe and gives ffprobe's reason", async () => {
    for (const name of ['page.mp4', 'empty.mp4', 'jpeg-named.mp4', 'vp9.webm', 'cover.mp3', 'photo.heic']) {
      const { says, spawned } = await verified(name);
      expect(says, name).toBe(await ffprobeSays(name));
      expect(spawned, name).toBe(1);
    }
    expect((await verified('page.mp4')).says).toMatch(/^cannot read page\.mp4: .*Invalid data/);
  });

  it('leaves fragmented movies and movies lacking a part to ffprobe', async () => {
    const missing = [
      'fragmented.mp4',
      'no-track.mp4',
      'no-movie-header.mp4',
      'no-track-media.mp4',
      'no-media-data.mp4',
      'track-past-movie.mp4',
    ];
    for (const name of missing) {
      const { says, spawned } = await verified(name);
      expect({ says, spawned }, name).toEqual({ says: await ffprobeSays(name), spawned: 1 });
    }
    // A movie without tracks is the one of these ffprobe refuses: were it taken in-process, it would pass.
    expect((await verified('no-track.mp4')).says).not.toBe('accepted');
  });
});

function outcome(check: Promise<unknown>): Promise<string> {
  return check.then(
    () => 'accepted',
    (error: Error) => error.message,
  );
}

function spawnSyncChecked(bin: string, args: string[]): { status: number | null; stderr: string } {
  const done = spawnSync(bin, ['-v', 'error', '-y', ...args], { encoding: 'utf8' });
  return { status: done.status, stderr: done.stderr };
}

/** Where a top-level box of `type` starts (32-bit sizes, as ffmpeg writes small files). */
function boxStart(bytes: Buffer, type: string): number {
  for (let at = 0; at + 8 <= bytes.length; at += bytes.readUInt32BE(at)) {
    if (bytes.toString('latin1', at + 4, at + 8) === type) return at;
  }
  throw new Error(`no ${type} box`);
}

function renamed(bytes: Buffer, boxAt: number, type: string): Buffer {
  const copy = Buffer.from(bytes);
  copy.write(type, boxAt + 4, 'latin1');
  return copy;
}

/** Every box of `type` inside the movie box made a `free` box: the movie no longer has that part. */
function renamedInMovie(bytes: Buffer, type: string): Buffer {
  const movie = boxStart(bytes, 'moov');
  const end = movie + bytes.readUInt32BE(movie);
  let copy = bytes;
  for (let at = bytes.indexOf(type, movie, 'latin1'); at >= 0 && at < end; at = copy.indexOf(type, at + 4, 'latin1'))
    copy = renamed(copy, at - 4, 'free');
  return copy;
}

/**
 * ffmpeg reserves an 8-byte `free` box before the media data for a size past 4 GB: this writes the
 * media data's header there as a 64-bit size, as it does for a large file, without moving any sample.
 */
function withLargeMediaBox(bytes: Buffer): Buffer {
  const reserved = boxStart(bytes, 'free');
  expect(bytes.toString('latin1', reserved + 12, reserved + 16)).toBe('mdat');
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(1, reserved);
  copy.write('mdat', reserved + 4, 'latin1');
  copy.writeBigUInt64BE(BigInt(bytes.readUInt32BE(reserved + 8) + 8), reserved + 8);
  return copy;
}

/** The first track's size made 8 bytes longer: its boxes no longer fit the movie box. */
function withTrackPastMovie(bytes: Buffer): Buffer {
  const track = bytes.indexOf('trak', boxStart(bytes, 'moov'), 'latin1') - 4;
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(bytes.readUInt32BE(track) + 8, track);
  return copy;
}

function withSizeZero(bytes: Buffer, type: string): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(0, boxStart(bytes, type));
  return copy;
}
