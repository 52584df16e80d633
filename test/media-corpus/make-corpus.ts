// The media matrix's corpus: files as users have them (phone photos, screen recordings, voice memos,
// files with the wrong extension, cut-short and empty ones), made with ffmpeg into a cache folder beside
// the sandbox's sample media, once per recipe. The few that ffmpeg cannot write (progressive and CMYK
// JPEG, HEIC, AVIF for an ffmpeg older than 5.1) are committed under committed/, each a few KB.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { sharedCacheDir } from '../../electron/emulator';

const here = import.meta.dirname;
const COMMITTED = join(here, 'committed');

/** The npm build makes the corpus everywhere (it is always installed), so every machine gets the same files. */
export function npmBinaries(): { ffmpeg: string; ffprobe: string } {
  const require = createRequire(join(here, '..', '..', 'package.json'));
  return {
    ffmpeg: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
    ffprobe: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
  };
}

const SIZE = '96x64';
const pattern = (rate = 25): string[] => ['-f', 'lavfi', '-i', `testsrc2=size=${SIZE}:rate=${rate}`];
const tone = (rate = 44100): string[] => ['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=${rate}`];
const still = ['-frames:v', '1'];
const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

type Step = { ffmpeg: string[] } | { copy: string } | { committed: string } | { bytes: (dir: string) => Buffer };

/** Name → how it is made. Order matters: copies and cuts follow the file they start from. */
const RECIPES: ReadonlyArray<[string, Step]> = [
  ['jpeg-baseline.jpg', { ffmpeg: [...pattern(), ...still, '-q:v', '5'] }],
  // ffprobe opens a larger JPEG with the image2 demuxer and a one-frame "duration" (issue 36).
  ['jpeg-large.jpg', { ffmpeg: ['-f', 'lavfi', '-i', 'testsrc2=size=1280x720', ...still, '-q:v', '8'] }],
  ['jpeg-progressive.jpg', { committed: 'progressive.jpg' }],
  ['jpeg-exif-rotated.jpg', { bytes: (dir) => withExifOrientation(readFileSync(join(dir, 'jpeg-baseline.jpg')), 6) }],
  ['jpeg-cmyk.jpg', { committed: 'cmyk.jpg' }],
  ['png-alpha.png', { ffmpeg: ['-f', 'lavfi', '-i', `color=c=red@0.5:size=${SIZE},format=rgba`, ...still] }],
  ['png-16bit.png', { ffmpeg: [...pattern(), ...still, '-pix_fmt', 'rgb48be'] }],
  ['png-palette.png', { ffmpeg: [...pattern(), ...still, '-pix_fmt', 'pal8'] }],
  ['webp-still.webp', { ffmpeg: [...pattern(), ...still, '-c:v', 'libwebp'] }],
  ['webp-animated.webp', { ffmpeg: [...pattern(10), '-t', '1', '-c:v', 'libwebp_anim', '-loop', '0'] }],
  ['gif-still.gif', { ffmpeg: [...pattern(), ...still] }],
  ['gif-animated.gif', { ffmpeg: [...pattern(10), '-t', '1'] }],
  ['picture.bmp', { ffmpeg: [...pattern(), ...still] }],
  ['photo.heic', { committed: 'photo.heic' }],
  ['photo.avif', { committed: 'photo.avif' }],
  ['h264.mp4', { ffmpeg: [...pattern(), ...tone(), '-t', '1.5', ...h264, '-c:a', 'aac', '-shortest'] }],
  [
    'hevc.mp4',
    {
      ffmpeg: [
        ...pattern(),
        '-t',
        '1.2',
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-tag:v',
        'hvc1',
        '-x265-params',
        'log-level=error',
      ],
    },
  ],
  // A phone's clip: QuickTime, H.264 with sound, stored sideways with a rotation in its display matrix.
  ['phone.mov', { ffmpeg: ['-i', '{dir}/h264.mp4', '-c', 'copy', '-metadata:s:v:0', 'rotate=90'] }],
  [
    'vfr.mp4',
    { ffmpeg: [...pattern(30), '-t', '1.5', '-vf', "select='lt(n\\,10)+not(mod(n\\,3))'", '-vsync', 'vfr', ...h264] },
  ],
  ['fps60.mp4', { ffmpeg: [...pattern(60), ...tone(), '-t', '1.2', ...h264, '-c:a', 'aac', '-shortest'] }],
  [
    'tenbit.mp4',
    {
      ffmpeg: [
        ...pattern(),
        '-t',
        '1.2',
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p10le',
        '-tag:v',
        'hvc1',
        '-x265-params',
        'log-level=error',
      ],
    },
  ],
  [
    'vp9.webm',
    {
      ffmpeg: [
        ...pattern(),
        ...tone(48000),
        '-t',
        '1.2',
        '-c:v',
        'libvpx-vp9',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-c:a',
        'libopus',
        '-shortest',
      ],
    },
  ],
  [
    'mjpeg.avi',
    { ffmpeg: [...pattern(), ...tone(), '-t', '1.2', '-c:v', 'mjpeg', '-q:v', '5', '-c:a', 'pcm_s16le', '-shortest'] },
  ],
  [
    'cover.mp3',
    {
      ffmpeg: [
        ...tone(),
        '-i',
        '{dir}/jpeg-baseline.jpg',
        '-t',
        '1.5',
        '-map',
        '0:a',
        '-map',
        '1:v',
        '-c:a',
        'libmp3lame',
        '-c:v',
        'copy',
        '-disposition:v',
        'attached_pic',
        '-id3v2_version',
        '3',
      ],
    },
  ],
  ['mono-8k.wav', { ffmpeg: [...tone(8000), '-t', '1.5', '-ac', '1', '-c:a', 'pcm_u8'] }],
  ['aac.m4a', { ffmpeg: [...tone(), '-t', '1.5', '-c:a', 'aac'] }],
  ['opus.ogg', { ffmpeg: [...tone(48000), '-t', '1.5', '-c:a', 'libopus'] }],
  ['sound.flac', { ffmpeg: [...tone(), '-t', '1.5', '-c:a', 'flac'] }],
  ['mp4-named.jpg', { copy: 'h264.mp4' }],
  ['jpeg-named.mp4', { copy: 'jpeg-baseline.jpg' }],
  ['wav-named.png', { copy: 'mono-8k.wav' }],
  // The movie box is written last, so the first 2 KB of an MP4 hold no playable description.
  ['truncated.mp4', { bytes: (dir) => readFileSync(join(dir, 'h264.mp4')).subarray(0, 2048) }],
  [
    'truncated.jpg',
    {
      bytes: (dir) => {
        const all = readFileSync(join(dir, 'jpeg-large.jpg'));
        return all.subarray(0, Math.floor(all.length * 0.4));
      },
    },
  ],
  ['empty.jpg', { bytes: () => Buffer.alloc(0) }],
  ['empty.mp4', { bytes: () => Buffer.alloc(0) }],
  ['empty.mp3', { bytes: () => Buffer.alloc(0) }],
  ['text.png', { bytes: () => Buffer.from('This is a note, not a picture.\n') }],
];

export const CORPUS_FILES: readonly string[] = RECIPES.map(([name]) => name);

/**
 * A JPEG with an EXIF APP1 segment holding only Orientation (tag 0x0112) = `orientation`, placed right
 * after the start-of-image marker as cameras write it.
 */
export function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  if (jpeg.readUInt16BE(0) !== 0xffd8) throw new Error('not a JPEG');
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // first IFD right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value
  tiff.writeUInt16BE(orientation, 18); // stored in the entry itself
  tiff.writeUInt32BE(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

function recipeKey(ffmpeg: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify(RECIPES.map(([n, s]) => [n, 'bytes' in s ? String(s.bytes) : s])))
    .update(ffmpeg);
  for (const name of readdirSync(COMMITTED).sort()) hash.update(name).update(readFileSync(join(COMMITTED, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The corpus folder, made when missing. Made in a scratch folder and renamed into place, so workers
 * that ask at once never see half a corpus.
 */
export function ensureCorpus(ffmpeg = npmBinaries().ffmpeg): string {
  const root = join(dirname(sharedCacheDir()), 'media-corpus');
  const dir = join(root, recipeKey(ffmpeg));
  if (existsSync(join(dir, '.complete'))) return dir;
  const scratch = `${dir}.${process.pid}.${Date.now().toString(36)}`;
  mkdirSync(scratch, { recursive: true });
  try {
    for (const [name, step] of RECIPES) {
      const out = join(scratch, name);
      if ('committed' in step) copyFileSync(join(COMMITTED, step.committed), out);
      else if ('copy' in step) copyFileSync(join(scratch, step.copy), out);
      else if ('bytes' in step) writeFileSync(out, step.bytes(scratch));
      else run(ffmpeg, [...step.ffmpeg.map((a) => a.replace('{dir}', scratch)), out]);
    }
    writeFileSync(join(scratch, '.complete'), new Date().toISOString());
    try {
      renameSync(scratch, dir);
    } catch (error) {
      // Another worker finished first: its corpus is the same.
      if (!existsSync(join(dir, '.complete'))) throw error;
    }
    return dir;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function run(ffmpeg: string, args: string[]): void {
  const result = spawnSync(ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`making ${args.at(-1)} failed: ${result.stderr.trim()}`);
}

// `npx tsx test/media-corpus/make-corpus.ts` makes (or finds) the corpus and prints where it is.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const started = Date.now();
  console.log(`${ensureCorpus()} (${Date.now() - started} ms)`);
}
