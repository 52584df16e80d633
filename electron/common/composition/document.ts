import { z } from 'zod';
import { HexColour } from './colour';
import { FontRecord, TextStyle } from './text-style';
import { LoudnessTarget, MusicTrack, SceneMusic } from './music-schema';
import { CaptionCue, CaptionSettings } from '../captions/caption-track';
import { FormatLayout } from './format-schema';

export { HexColour };

/**
 * The project document: plain, versioned JSON. Nothing from Vue or Konva lives here; the editor
 * renders from it and changes it only through the pure operations in this folder.
 *
 * Structural rules (types, required fields, id uniqueness) are enforced by the schema so a loaded file
 * is always workable. The service's limits (scale 0..1, a voice per scene, text lengths, ...) are
 * checked separately by `validateProject`, which lists problems instead of refusing the document,
 * because a project being edited is allowed to be not yet submittable.
 */

/** 2: an element's place is its box in output pixels (version 1 stored scale and offset). */
export const SCHEMA_VERSION = 2;
/** Each output side is at most this many pixels (talking avatar rule, applied to both kinds). */
export const MAX_SIDE = 3840;
export const MIN_SIDE = 16;
export const MIN_SCENE_MS = 100;
export const MAX_SCENE_MS = 10 * 60 * 1000;
export const DEFAULT_SCENE_MS = 5000;
export const DEFAULT_BACKGROUND = '#ffffff';

export const ProjectKind = z.enum(['avatar-video', 'talking-avatar']);
export type ProjectKind = z.infer<typeof ProjectKind>;

export const OutputSize = z.object({
  width: z.number().int().min(MIN_SIDE).max(MAX_SIDE),
  height: z.number().int().min(MIN_SIDE).max(MAX_SIDE),
});
export type OutputSize = z.infer<typeof OutputSize>;

export const OUTPUT_PRESETS = [
  { id: '16:9-1080p', label: '16:9 · 1920×1080', ratio: '16:9', width: 1920, height: 1080 },
  { id: '16:9-720p', label: '16:9 · 1280×720', ratio: '16:9', width: 1280, height: 720 },
  { id: '9:16', label: '9:16 · 1080×1920', ratio: '9:16', width: 1080, height: 1920 },
  { id: '1:1', label: '1:1 · 1080×1080', ratio: '1:1', width: 1080, height: 1080 },
  { id: '4:5', label: '4:5 · 1080×1350', ratio: '4:5', width: 1080, height: 1350 },
] as const;
export type OutputPresetId = (typeof OUTPUT_PRESETS)[number]['id'];
export const OutputPresetId = z.enum(OUTPUT_PRESETS.map((p) => p.id) as [OutputPresetId, ...OutputPresetId[]]);

/** A scene's voice: an audio URL, or a voiceover made in the app (TTS), whose audio may exist yet. */
export const UrlVoice = z.object({ kind: z.literal('url'), url: z.string().min(1) });
export const TtsVoice = z.object({
  kind: z.literal('tts'),
  text: z.string(),
  voiceId: z.string(),
  /** Speaking speed as the service wants it: "<n>%" with n in 0..100. */
  rate: z.string().regex(/^\d{1,3}%$/, 'a rate like 50%'),
  /** Filled once the voiceover has been generated. */
  audioUrl: z.string().min(1).optional(),
});
export const Voice = z.discriminatedUnion('kind', [UrlVoice, TtsVoice]);
export type UrlVoice = z.infer<typeof UrlVoice>;
export type TtsVoice = z.infer<typeof TtsVoice>;
export type Voice = z.infer<typeof Voice>;

export const ElementType = z.enum(['avatar', 'image', 'video', 'audio', 'text']);
export type ElementType = z.infer<typeof ElementType>;

/** 2: official avatar from the catalogue; 3: the user's own (uploaded) avatar. */
export const AvatarFrom = z.union([z.literal(2), z.literal(3)]);
export type AvatarFrom = z.infer<typeof AvatarFrom>;

/**
 * An element's place (see geometry.ts): its box in output pixels, the box's top-left corner at (x, y)
 * from the frame's top-left, `width` × `height` pixels; the media is stretched to the box. This is
 * what the canvas shows. How the box is written on the wire (offset of the centre or of the corner,
 * scale of the frame or of the media) is a property of the connection, applied by the serialisers.
 */
export const MediaSize = z.object({ width: z.number().positive().finite(), height: z.number().positive().finite() });
export type MediaSize = z.infer<typeof MediaSize>;

/**
 * The part an element plays in a design, so a brand kit knows what to restyle: text by title, lower
 * third or body; a logo it replaces; a backdrop or accent it leaves alone. Absent: inferred (brand-kit.ts).
 */
export const ElementRole = z.enum(['title', 'lower-third', 'body', 'logo', 'backdrop', 'accent']);
export type ElementRole = z.infer<typeof ElementRole>;

export const SceneElement = z.object({
  id: z.string().min(1),
  type: ElementType,
  /** Media URL (http(s) or file:); for a talking-avatar image it may also be a hex colour. */
  url: z.string(),
  avatarId: z.string().optional(),
  avatarFrom: AvatarFrom.optional(),
  /**
   * 'catalogue': `url` is the avatar's media link as the catalogue of the connection it was chosen on gave
   * it (a link that names that connection, a sandbox's passing port included). Sent, the link of
   * `avatarId` in the sending connection's catalogue takes its place (avatar-links.ts). Absent: the url is
   * the user's own and is sent as it is.
   */
  urlFrom: z.literal('catalogue').optional(),
  x: z.number().finite(),
  y: z.number().finite(),
  width: z.number().finite().min(0),
  height: z.number().finite().min(0),
  /** The media's own size in pixels, when known: a connection whose scale is of the element needs it. */
  mediaSize: MediaSize.optional(),
  /** Higher is displayed above; equal layers stack in array order. */
  layer: z.number().int(),
  locked: z.boolean().optional(),
  name: z.string().optional(),
  /** Talking-avatar audio element given as text: both inputText and voiceId are needed. */
  inputText: z.string().optional(),
  voiceId: z.string().optional(),
  /**
   * A text element's words and look. The studio draws it (text-style.ts) and sends the service a
   * picture of it; `mediaSize` is then the text's natural size, so scaling the box scales the text.
   */
  text: TextStyle.optional(),
  role: ElementRole.optional(),
  /**
   * When the element shows, in milliseconds from its scene's start (element-timing.ts): from
   * `startMs` (absent: the start) until `endMs` (absent: the scene's end).
   */
  startMs: z.number().int().min(0).max(MAX_SCENE_MS).optional(),
  endMs: z.number().int().min(1).max(MAX_SCENE_MS).optional(),
});
export type SceneElement = z.infer<typeof SceneElement>;

export const Scene = z.object({
  id: z.string().min(1),
  durationMs: z.number().int().min(MIN_SCENE_MS).max(MAX_SCENE_MS),
  voice: Voice.nullable(),
  elements: z.array(SceneElement),
  name: z.string().optional(),
  /** A brand kit's intro or outro scene (replaced, not repeated, when the kit is applied again). */
  brand: z.enum(['intro', 'outro']).optional(),
  /** This scene's own music (or none), instead of the project's (music-track.ts). */
  music: SceneMusic.optional(),
  /** The scene's captions, timed inside the scene (captions/caption-track.ts). */
  captions: z.array(CaptionCue).optional(),
  /**
   * The scene lasts as long as its voice (true) or `durationMs` whatever the voice (false); absent: as
   * the project says (voice-follow.ts). A following scene's `durationMs` is its voice's last known length.
   */
  followVoice: z.boolean().optional(),
});
export type Scene = z.infer<typeof Scene>;

export const Project = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    id: z.string().min(1),
    name: z.string(),
    kind: ProjectKind,
    output: OutputSize,
    background: HexColour,
    scenes: z.array(Scene).min(1),
    /** Scene lengths follow their voiceovers (set to each voice's length once it is known), as script-driven editors do; a scene may say otherwise. */
    followVoice: z.boolean().optional(),
    /**
     * The font files the text elements and captions use, with their fingerprints, so another machine can tell
     * whether it would draw the same letters (kept up to date by the text operations).
     */
    fonts: z.array(FontRecord).optional(),
    /** Music under the voice of every scene that has none of its own, and the loudness of the mixes (music-track.ts). */
    music: MusicTrack.optional(),
    loudness: LoudnessTarget.optional(),
    /** How captions look and whether subtitle files go beside downloads (captions/caption-track.ts). */
    captions: CaptionSettings.optional(),
    /** The project's other formats (formats.ts): `output` and the boxes above are the one being edited. */
    formats: z.array(FormatLayout).max(12).optional(),
  })
  .superRefine((project, ctx) => {
    const seen = new Set<string>();
    project.scenes.forEach((scene, s) => {
      const ids = [scene.id, ...scene.elements.map((e) => e.id)];
      ids.forEach((id, i) => {
        if (seen.has(id)) {
          const path = i === 0 ? ['scenes', s, 'id'] : ['scenes', s, 'elements', i - 1, 'id'];
          ctx.addIssue({ code: 'custom', path, message: `duplicate id "${id}"` });
        }
        seen.add(id);
      });
    });
    const sizes = new Set([`${project.output.width}x${project.output.height}`]);
    project.formats?.forEach((format, f) => {
      const key = `${format.output.width}x${format.output.height}`;
      if (sizes.has(key))
        ctx.addIssue({ code: 'custom', path: ['formats', f, 'output'], message: `format ${key} twice` });
      sizes.add(key);
    });
  });
export type Project = z.infer<typeof Project>;

export type ParseResult = { ok: true; project: Project } | { ok: false; error: string };

/**
 * Reads a project from parsed JSON (or JSON text). Never throws: a file that is not a project, or a
 * project from a newer app, gives one readable message naming what is wrong and where.
 */
export function parseProject(input: unknown): ParseResult {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      return { ok: false, error: `Not valid JSON: ${(error as Error).message}` };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'Not a project: expected a JSON object.' };
  }
  const version = (value as { schemaVersion?: unknown }).schemaVersion;
  if (typeof version !== 'number') {
    return { ok: false, error: 'Not a project: "schemaVersion" is missing.' };
  }
  if (version > SCHEMA_VERSION) {
    return {
      ok: false,
      error: `This project was saved by a newer version of the app (schema ${version}; this app reads up to ${SCHEMA_VERSION}).`,
    };
  }
  const migrated = migrate(value as Record<string, unknown>, version);
  const result = Project.safeParse(migrated);
  if (result.success) return { ok: true, project: result.data };
  const lines = result.error.issues.slice(0, 8).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = result.error.issues.length > 8 ? `\n(and ${result.error.issues.length - 8} more)` : '';
  return { ok: false, error: `Invalid project:\n${lines.join('\n')}${more}` };
}

/** Upgrades an older document one version at a time. */
function migrate(value: Record<string, unknown>, from: number): unknown {
  let doc = value;
  if (from <= 1) doc = fromVersion1(doc);
  return doc;
}

/**
 * Version 1 stored the box as the canvas drew it: top-left at (offsetX, offsetY) pixels, scaleX ×
 * output width by scaleY × output height. The same box in pixels, so nothing moves on screen.
 */
function fromVersion1(value: Record<string, unknown>): Record<string, unknown> {
  const output = value.output as { width?: unknown; height?: unknown } | undefined;
  const width = typeof output?.width === 'number' ? output.width : NaN;
  const height = typeof output?.height === 'number' ? output.height : NaN;
  const scenes = value.scenes;
  const upgrade = (element: unknown): unknown => {
    if (typeof element !== 'object' || element === null) return element;
    const { offsetX, offsetY, scaleX, scaleY, ...rest } = element as Record<string, unknown>;
    const px = (v: unknown, side: number): unknown => (typeof v === 'number' ? Math.round(v * side * 100) / 100 : v);
    return { ...rest, x: offsetX, y: offsetY, width: px(scaleX, width), height: px(scaleY, height) };
  };
  return {
    ...value,
    schemaVersion: 2,
    scenes: Array.isArray(scenes)
      ? scenes.map((scene: unknown) =>
          typeof scene === 'object' && scene !== null && Array.isArray((scene as { elements?: unknown }).elements)
            ? { ...scene, elements: (scene as { elements: unknown[] }).elements.map(upgrade) }
            : scene,
        )
      : scenes,
  };
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(project)';
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** The "w:h" ratio the avatar-video body carries, reduced (1920x1080 → "16:9"). */
export function ratioOf(output: OutputSize): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const d = gcd(output.width, output.height);
  return `${output.width / d}:${output.height / d}`;
}

export function presetById(id: OutputPresetId): OutputSize {
  const preset = OUTPUT_PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(`Unknown output preset "${id}"`);
  return { width: preset.width, height: preset.height };
}
