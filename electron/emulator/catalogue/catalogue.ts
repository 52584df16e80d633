import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import PQueue from 'p-queue';
import { speak } from '../media/speech';
import type { MediaTools } from '../media/tools';
import { AI_MODELS, CLIP, FACE_IMAGES, OFFICIAL_AVATARS, OFFICIAL_VOICES, PLAIN_SAMPLES, THUMB } from './definitions';
import { releaseGenerationLock, takeGenerationLock } from './generation-lock';
import { faceGeometry, paintFrame, scaleGeometry, type FaceGeometry, type FaceSpec, type Rgb } from './draw-face';

/** Bump when the sample media change, so old caches are rebuilt. */
// 4: avatar clips carry a (silent) sound track, so they can be lip synced (the service wants video with audio, 1203).
const CATALOGUE_VERSION = 4;

/** The versioned folder inside a catalogue cache root. */
export function catalogueDirIn(root: string): string {
  return join(root, `v${CATALOGUE_VERSION}`);
}

export interface KnownMedia {
  file: string;
  kind: 'image' | 'video';
  width: number;
  height: number;
  seconds: number;
  faces: FaceGeometry[];
}

interface Manifest {
  version: number;
  /** False when espeak-ng was missing at generation: the voice previews are absent until it is installed. */
  speech: boolean;
  /** sha256 of each file → what it shows. */
  known: Record<string, KnownMedia>;
  files: string[];
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The official voices, avatars and models, and the sample media behind them, generated once into
 * the catalogue folder. Every picture with a face was drawn by us, so its faces are known exactly
 * and are looked up by content hash; any other media has no faces as far as the sandbox knows.
 */
export class Catalogue {
  readonly voices = OFFICIAL_VOICES;
  readonly avatars = OFFICIAL_AVATARS;
  readonly models = AI_MODELS;
  private known = new Map<string, KnownMedia>();
  private ready: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly tools: MediaTools,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Loads the catalogue, generating it first if needed; started once (at sandbox start, in the
   * background), and awaited by whatever needs its files. Generation happens in a private folder that
   * is renamed into place, so several sandboxes starting at once on one cache never see half of it.
   */
  ensure(): Promise<void> {
    this.ready ??= this.loadOrGenerate();
    return this.ready;
  }

  private async loadOrGenerate(): Promise<void> {
    if (await this.load()) return;
    await mkdir(dirname(this.dir), { recursive: true });
    // One generator per cache: the others wait for its manifest.
    if ((await takeGenerationLock(this.dir, () => this.load())) === 'ready') return;
    try {
      if (!(await this.load())) await this.generate();
    } finally {
      await releaseGenerationLock(this.dir);
    }
  }

  private async generate(): Promise<void> {
    const started = Date.now();
    const build = `${this.dir}.build-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    await mkdir(build, { recursive: true });
    try {
      const entries = await this.build(build);
      const known: Record<string, KnownMedia> = {};
      for (const e of entries) if (e.faces.length) known[await sha256File(join(build, e.file))] = e;
      const manifest: Manifest = {
        version: CATALOGUE_VERSION,
        speech: this.tools.espeak() !== null,
        known,
        files: this.fileList(),
      };
      await writeFile(join(build, 'manifest.json'), JSON.stringify(manifest, null, 1));
      await rm(this.dir, { recursive: true, force: true });
      await rename(build, this.dir);
      if (!(await this.load())) throw new Error('sandbox sample media could not be prepared');
      this.log(`sandbox sample media generated in ${Date.now() - started} ms`);
    } finally {
      await rm(build, { recursive: true, force: true });
    }
  }

  private async load(): Promise<boolean> {
    const manifestPath = join(this.dir, 'manifest.json');
    if (!existsSync(manifestPath)) return false;
    try {
      const m = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
      if (m.version !== CATALOGUE_VERSION || !m.files.every((f) => existsSync(join(this.dir, f)))) return false;
      if (!m.speech && this.tools.espeak() !== null) return false;
      this.known = new Map(Object.entries(m.known));
      return true;
    } catch {
      return false;
    }
  }

  private fileList(): string[] {
    return [
      ...(this.tools.espeak() ? this.voices.map((v) => voicePreviewFile(v.voice_id)) : []),
      ...this.avatars.flatMap((a) => [avatarClipFile(a.avatar_id), avatarThumbFile(a.avatar_id)]),
      ...FACE_IMAGES.map((f) => f.file),
      PLAIN_SAMPLES.motion,
      PLAIN_SAMPLES.backdrop,
    ];
  }

  private async build(out: string): Promise<KnownMedia[]> {
    const t = this.tools;
    const work = join(out, '.work');
    await mkdir(work, { recursive: true });
    const entries: KnownMedia[] = [];
    const still = async (
      name: string,
      w: number,
      h: number,
      bg: Rgb,
      faces: FaceSpec[],
      mouthOpen: boolean,
      out: string,
    ) => {
      const raw = join(work, `${name}.rgb`);
      await writeFile(raw, paintFrame(w, h, bg, faces, mouthOpen));
      await t.runFfmpeg(['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${w}x${h}`, '-i', raw, '-frames:v', '1', out]);
    };
    const queue = new PQueue({ concurrency: 2 });
    const failures: Error[] = [];
    const task = (fn: () => Promise<void>) => void queue.add(fn).catch((e: Error) => failures.push(e));
    for (const img of FACE_IMAGES)
      task(async () => {
        await still(img.file, img.width, img.height, img.background, img.faces, false, join(out, img.file));
        entries.push({
          file: img.file,
          kind: 'image',
          width: img.width,
          height: img.height,
          seconds: 0,
          faces: img.faces.map(faceGeometry),
        });
      });
    for (const a of this.avatars)
      task(async () => {
        const closed = join(work, `${a.avatar_id}-closed.png`);
        const open = join(work, `${a.avatar_id}-open.png`);
        await still(`${a.avatar_id}-c`, CLIP.width, CLIP.height, a.background, [a.face], false, closed);
        await still(`${a.avatar_id}-o`, CLIP.width, CLIP.height, a.background, [a.face], true, open);
        // The mouth opens for 0.2 s every 0.4 s: a talking presenter whose face never moves.
        await t.runFfmpeg([
          '-loop',
          '1',
          '-framerate',
          String(CLIP.fps),
          '-i',
          closed,
          '-loop',
          '1',
          '-framerate',
          String(CLIP.fps),
          '-i',
          open,
          '-f',
          'lavfi',
          '-i',
          'anullsrc=r=44100:cl=mono',
          '-filter_complex',
          "[0][1]overlay=enable='gte(mod(t\\,0.4)\\,0.2)',format=yuv420p[v]",
          '-map',
          '[v]',
          '-map',
          '2:a',
          '-t',
          String(CLIP.seconds),
          '-r',
          String(CLIP.fps),
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-crf',
          '26',
          '-c:a',
          'aac',
          '-movflags',
          '+faststart',
          join(out, avatarClipFile(a.avatar_id)),
        ]);
        await t.runFfmpeg([
          '-i',
          closed,
          '-vf',
          `scale=${THUMB.width}:${THUMB.height}`,
          '-q:v',
          '4',
          join(out, avatarThumbFile(a.avatar_id)),
        ]);
        const g = faceGeometry(a.face);
        entries.push({
          file: avatarClipFile(a.avatar_id),
          kind: 'video',
          width: CLIP.width,
          height: CLIP.height,
          seconds: CLIP.seconds,
          faces: [g],
        });
        entries.push({
          file: avatarThumbFile(a.avatar_id),
          kind: 'image',
          width: THUMB.width,
          height: THUMB.height,
          seconds: 0,
          faces: [scaleGeometry(g, THUMB.width / CLIP.width, THUMB.height / CLIP.height)],
        });
      });
    task(() =>
      t.runFfmpeg([
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=${CLIP.width}x${CLIP.height}:rate=${CLIP.fps}`,
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:sample_rate=44100',
        '-t',
        '3',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '64k',
        '-movflags',
        '+faststart',
        join(out, PLAIN_SAMPLES.motion),
      ]),
    );
    task(() =>
      t.runFfmpeg([
        '-f',
        'lavfi',
        '-i',
        `color=c=0x2f5d8a:size=1280x720`,
        '-vf',
        'drawbox=y=ih*0.6:w=iw:h=ih*0.4:color=0x6fa86f:t=fill',
        '-frames:v',
        '1',
        join(out, PLAIN_SAMPLES.backdrop),
      ]),
    );
    if (!t.espeak())
      this.log(
        'espeak-ng is not installed: official voices have no preview, and speech jobs will fail with that reason',
      );
    else
      for (const v of this.voices)
        task(async () => {
          const text = `Hello, I am ${v.name}. This is how I sound in the Avatar Studio sandbox.`;
          await speak(
            t,
            text,
            { espeak: v.espeak, pitch: v.pitch },
            0.5,
            join(out, voicePreviewFile(v.voice_id)),
            work,
          );
        });
    await queue.onIdle();
    if (failures.length) throw failures[0];
    await rm(work, { recursive: true, force: true });
    return entries;
  }

  /** What the sandbox knows about a file by its content, or undefined (then it shows no faces). */
  async identify(path: string): Promise<KnownMedia | undefined> {
    await this.ensure();
    return this.known.get(await sha256File(path));
  }

  /** Registers a rendered file that shows known faces (e.g. an avatar clip after lip sync). */
  async remember(path: string, media: Omit<KnownMedia, 'file'> & { file: string }): Promise<void> {
    this.known.set(await sha256File(path), media);
  }

  voice(voiceId: string) {
    return this.voices.find((v) => v.voice_id === voiceId);
  }

  avatarById(avatarId: string) {
    return this.avatars.find((a) => a.avatar_id === avatarId || a._id === avatarId);
  }
}

export const voicePreviewFile = (voiceId: string) => `voice-${voiceId}.mp3`;
export const avatarClipFile = (avatarId: string) => `avatar-${avatarId}.mp4`;
export const avatarThumbFile = (avatarId: string) => `avatar-${avatarId}.jpg`;
