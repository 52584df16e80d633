// The media matrix (issue 36): every file of the corpus through every service-side path, once with the
// npm ffmpeg/ffprobe 4.1 the studio falls back to and once with the system's current ffmpeg when there
// is one. Each row states what the file is and which fields take it; every other field must refuse it
// with a reason a person understands, and nothing may crash.
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lipSyncChecks } from '@common/composition/media-checks';
import { mediaRefusal, readableMedia, type MediaField } from '@common/composition/media-fields';
import { isRealMedia, type MediaInfo } from '@common/composition/media-info';
import { linkProblems, type LinkReport } from '@common/composition';
import { swapInputChecks } from '@common/tools/character-swap';
import { AvatarsService } from '../../../electron/services/avatars/avatars-service';
import { FacesService } from '../../../electron/services/faces/faces-service';
import { LinkChecker } from '../../../electron/services/media/link-checker';
import { importLocalFile } from '../../../electron/services/media/local-import';
import { LocalGrants } from '../../../electron/services/media/local-grants';
import { MediaTools, TRANSPARENT_CAPABLE } from '../../../electron/services/media/media-tools';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { CORPUS_FILES, ensureCorpus } from '../../media-corpus/make-corpus';
import { loadProject } from '../composition/helpers';
import { mediaToolGenerations } from '../../media-tools-env';

/** Short names of the paths, for the table. */
const FIELDS = {
  img: 'element-image',
  vid: 'element-video',
  ava: 'avatar-media',
  voice: 'voice-audio',
  swapI: 'swap-image',
  swapV: 'swap-video',
  lipV: 'lipsync-video',
  lipA: 'lipsync-audio',
  face: 'face-detect',
  upl: 'avatar-upload',
  clone: 'clone-sample',
  live: 'live-face',
} as const satisfies Record<string, MediaField>;
type Column = keyof typeof FIELDS | 'still';

const PICTURE = 'img ava swapI face upl live still';
const ELEMENT_VIDEO = 'vid ava lipV face upl still';
const SOUND = 'voice lipA clone';
const NOTHING = '';

/** File → what it is ("kind format", or "unreadable") and the paths that take it. */
const TABLE: Record<string, [string, string]> = {
  'jpeg-baseline.jpg': ['image jpeg', PICTURE],
  'jpeg-large.jpg': ['image jpeg', PICTURE],
  'jpeg-progressive.jpg': ['image jpeg', PICTURE],
  'jpeg-exif-rotated.jpg': ['image jpeg', PICTURE],
  'jpeg-cmyk.jpg': ['image jpeg', PICTURE],
  'png-alpha.png': ['image png', PICTURE],
  'png-16bit.png': ['image png', PICTURE],
  'png-palette.png': ['image png', PICTURE],
  // WebP is an element picture and a face-detection input, but not a character image (PNG or JPEG).
  'webp-still.webp': ['image webp', 'img ava face upl live still'],
  // Neither ffmpeg decodes an animated WebP: it is refused as unreadable rather than sent unchecked.
  'webp-animated.webp': ['unreadable', NOTHING],
  // GIF: only face detection lists it; a still GIF is a picture, an animated one plays as a video.
  'gif-still.gif': ['image gif', 'face still'],
  'gif-animated.gif': ['video gif', 'face lipV still'],
  // BMP: face detection takes it; elements and character swap do not.
  'picture.bmp': ['image bmp', 'face still'],
  'photo.heic': ['image heic', NOTHING],
  'photo.avif': ['image avif', NOTHING],
  'h264.mp4': ['video mp4', `${ELEMENT_VIDEO} swapV`],
  'hevc.mp4': ['video mp4', `${ELEMENT_VIDEO} swapV`],
  'phone.mov': ['video mov', ELEMENT_VIDEO],
  'vfr.mp4': ['video mp4', `${ELEMENT_VIDEO} swapV`],
  'fps60.mp4': ['video mp4', `${ELEMENT_VIDEO} swapV`],
  'tenbit.mp4': ['video mp4', `${ELEMENT_VIDEO} swapV`],
  // WebM: face detection lists it, the elements (MP4, MOV, AVI) and character swap (MP4) do not.
  'vp9.webm': ['video webm', 'face lipV still'],
  'mjpeg.avi': ['video avi', ELEMENT_VIDEO],
  'cover.mp3': ['audio mp3', SOUND],
  'mono-8k.wav': ['audio wav', SOUND],
  'aac.m4a': ['audio m4a', SOUND],
  'opus.ogg': ['audio ogg', SOUND],
  'sound.flac': ['audio flac', SOUND],
  // Content decides, whatever the name says.
  'mp4-named.jpg': ['video mp4', `${ELEMENT_VIDEO} swapV`],
  'jpeg-named.mp4': ['image jpeg', PICTURE],
  'wav-named.png': ['audio wav', SOUND],
  'truncated.mp4': ['unreadable', NOTHING],
  // The header and the first rows survive: ffmpeg draws what is there, as a browser would.
  'truncated.jpg': ['image jpeg', PICTURE],
  'empty.jpg': ['unreadable', NOTHING],
  'empty.mp4': ['unreadable', NOTHING],
  'empty.mp3': ['unreadable', NOTHING],
  'text.png': ['unreadable', NOTHING],
};

/** ffprobe's own names, which must never reach a person. */
const JARGON = /image2|_pipe|matroska|mov,mp4|3gp|moov atom|Invalid data|codec|demux|\bN\/A\b/i;

function expectPlain(reason: string | null | undefined, file: string, path: string): void {
  expect(reason, `${file} on ${path} needs a reason`).toBeTruthy();
  expect(reason, `${file} on ${path}`).not.toMatch(JARGON);
}

const accepts = (file: string): Set<Column> => new Set(TABLE[file][1].split(' ').filter(Boolean) as Column[]);

describe('the media matrix covers the whole corpus', () => {
  it('has one row per corpus file', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...CORPUS_FILES].sort());
  });
});

describe.each(mediaToolGenerations())('media matrix with $label', ({ ffmpeg, ffprobe }) => {
  let corpus: string;
  let scratch: string;
  let prober: MediaProber;
  let tools: MediaTools;
  const infos = new Map<string, MediaInfo | null>();

  beforeAll(async () => {
    corpus = ensureCorpus();
    scratch = mkdtempSync(join(tmpdir(), 'matrix-'));
    const runner = new ProcessRunner();
    prober = new MediaProber(async () => ffprobe, runner);
    tools = new MediaTools({
      runner,
      ffmpeg: async () => ffmpeg,
      dir: join(scratch, 'scratch'),
      probe: (path) => prober.probe(path),
    });
    for (const file of CORPUS_FILES) infos.set(file, await prober.probe(join(corpus, file)).catch(() => null));
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const at = (file: string): string => join(corpus, file);
  const info = (file: string): MediaInfo | null => infos.get(file) ?? null;

  it.each(CORPUS_FILES)('probes %s as the table says', (file) => {
    const [what] = TABLE[file];
    const found = readableMedia(info(file));
    expect(found ? `${found.kind} ${found.format}` : 'unreadable').toBe(what);
  });

  it.each(CORPUS_FILES)('each field takes or refuses %s with a plain reason', (file) => {
    const taken = accepts(file);
    for (const [column, field] of Object.entries(FIELDS) as [keyof typeof FIELDS, MediaField][]) {
      const refusal = mediaRefusal(field, readableMedia(info(file)));
      if (taken.has(column)) expect(refusal, `${file} for ${field}`).toBeNull();
      else expectPlain(refusal, file, field);
    }
  });

  it.each(CORPUS_FILES)('the pre-flight link check of each element kind takes or refuses %s', async (file) => {
    const checker = new LinkChecker({ cache: { localPath: async () => at(file) }, prober });
    const url = pathToFileURL(at(file)).href;
    const [report] = await checker.check([url]);
    const taken = accepts(file);
    // two-scenes: backdrop.jpg is an image element, clip.mp4 a video element, voice-1.mp3 scene 1's voice.
    for (const [stand, column] of [
      ['https://cdn.example/backdrop.jpg', 'img'],
      ['https://cdn.example/clip.mp4', 'vid'],
      ['https://cdn.example/voice-1.mp3', 'voice'],
    ] as const) {
      const project = JSON.parse(JSON.stringify(loadProject('two-scenes.project.json')).replaceAll(stand, url));
      const problems = linkProblems(project, new Map<string, LinkReport>([[url, report]])).filter(
        (p) => p.level === 'error',
      );
      if (taken.has(column)) expect(problems, `${file} as ${column}`).toEqual([]);
      else {
        expect(problems, `${file} as ${column}`).toHaveLength(1);
        expectPlain(problems[0].message, file, column);
      }
    }
  });

  it.each(CORPUS_FILES)('a local import of %s gets the kind from its content, or a plain refusal', async (file) => {
    const deps = { dir: join(scratch, 'imports'), grants: new LocalGrants(), prober };
    const imported = await importLocalFile(deps, file, createReadStream(at(file))).then(
      (m) => m.info,
      (error: Error) => error,
    );
    const [what] = TABLE[file];
    if (what === 'unreadable' || what.endsWith('heic') || what.endsWith('avif')) {
      expect(imported).toBeInstanceOf(Error);
      expectPlain((imported as Error).message, file, 'import');
    } else {
      expect(imported).not.toBeInstanceOf(Error);
      expect(`${(imported as MediaInfo).kind} ${(imported as MediaInfo).format}`).toBe(what);
    }
  });

  it.each(CORPUS_FILES)('a still of %s is taken (pictures without seeking) or refused', async (file) => {
    const shot = await tools.frame(at(file), 0, 48).then(
      (bytes) => bytes,
      (error: Error) => error,
    );
    if (accepts(file).has('still')) {
      expect(shot, file).toBeInstanceOf(Buffer);
      // A picture that may be transparent keeps its alpha as a PNG (89 50 4e 47); the rest are JPEGs.
      const transparent = info(file)?.kind === 'image' && TRANSPARENT_CAPABLE.has(info(file)?.format ?? '');
      expect((shot as Buffer).subarray(0, 2).toString('hex'), file).toBe(transparent ? '8950' : 'ffd8');
    } else expect(shot).toBeInstanceOf(Error);
  });

  it.each(CORPUS_FILES)('lip sync and character swap take or refuse %s before sending', (file) => {
    const media = info(file) ?? unreadable;
    const good = { video: info('h264.mp4')!, image: info('jpeg-baseline.jpg')! };
    const taken = accepts(file);
    const errors = (checks: { level: string; code: string; message: string }[], codes: string[]) =>
      checks.filter((c) => c.level === 'error' && codes.includes(c.code));
    const cases: [Column, { message: string }[]][] = [
      ['lipV', errors(lipSyncChecks(media), ['not-video'])],
      ['lipA', errors(lipSyncChecks(good.video, media), ['audio-silent'])],
      ['swapI', errors(swapInputChecks(media, good.video, null), ['image-type'])],
      ['swapV', errors(swapInputChecks(good.image, media, null), ['not-video', 'video-type'])],
    ];
    for (const [column, found] of cases) {
      if (taken.has(column)) expect(found, `${file} as ${column}`).toEqual([]);
      else expectPlain(found[0]?.message, file, column);
    }
  });

  it.each(CORPUS_FILES)('face detection sends %s inline only when it is a picture the service reads', async (file) => {
    const sent: unknown[] = [];
    const client = {
      call: async (_op: string, body: unknown) => (
        sent.push(body),
        { error_code: 0, error_msg: 'SUCCESS', faces_obj: {} }
      ),
    };
    const reference = pathToFileURL(at(file)).href;
    const faces = new FacesService({
      activeClient: async () => ({ connectionId: 'c', client: client as never }),
      localPath: (ref) => (ref === reference ? at(file) : null),
      probe: () => prober.probe(at(file)),
    });
    const outcome = await faces.detect({ source: reference }).then(
      () => null,
      (error: Error) => error.message,
    );
    // `img` takes the pictures face detection lists (JPEG, PNG, BMP, WebP); a GIF or a video goes by link.
    const probed = readableMedia(info(file));
    const inline = accepts(file).has('face') && probed?.kind === 'image' && probed.format !== 'gif';
    if (inline) {
      expect(outcome).toBeNull();
      expect(sent).toEqual([{ img: expect.stringMatching(/^data:image\/(jpeg|png|bmp|webp);base64,/) }]);
    } else {
      expectPlain(outcome, file, 'face inline');
      expect(sent).toEqual([]);
    }
  });

  it.each(CORPUS_FILES)('an avatar upload of a local %s is sent or refused before uploading', async (file) => {
    const linked: string[] = [];
    const avatars = new AvatarsService({
      activeClient: async () => ({ call: async () => [] }) as never,
      link: async (source) => (linked.push(source), 'https://storage.example/a'),
      submit: async () => ({ status: 'submitted', job: {} }) as never,
      uploadsChanged: () => undefined,
      probe: () => prober.probe(at(file)),
    });
    const outcome = await avatars
      .upload({
        source: pathToFileURL(at(file)).href,
        avatarId: 'A1',
        name: 'A',
        type: 1,
        confirmation: { by: 'script' },
      })
      .then(
        () => null,
        (error: Error) => error.message,
      );
    if (accepts(file).has('upl')) expect(outcome).toBeNull();
    else {
      expectPlain(outcome, file, 'avatar upload');
      expect(linked).toEqual([]);
    }
  });

  it.each(CORPUS_FILES)('the sandbox upload takes %s only as readable media', (file) => {
    const probed = info(file);
    expect(Boolean(probed && isRealMedia(probed))).toBe(
      TABLE[file][0] !== 'unreadable' && !/heic/.test(TABLE[file][0]),
    );
  });
});

const unreadable: MediaInfo = {
  kind: 'image',
  durationMs: null,
  width: 0,
  height: 0,
  fps: null,
  videoCodec: null,
  audioCodec: null,
  hasVideo: false,
  hasAudio: false,
  sizeBytes: 0,
  formatName: 'unknown',
  format: 'unknown',
  rotation: 0,
};
