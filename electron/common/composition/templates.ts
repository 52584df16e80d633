import { z } from 'zod';
import type { Project, SceneElement } from './document';

/**
 * A template is a project kept as a starting point, in a folder of its own: `template.json` (this
 * schema), `thumbnail.jpg|png`, and `media/` holding a copy of every local file the project used.
 * Local media are copied rather than linked so the template outlives the user's originals and can be
 * handed to a colleague as one folder; each copy's SHA-256 is recorded, so a damaged or swapped file
 * is refused by name instead of quietly showing something else. Links (http) stay links.
 */
export const TEMPLATE_FORMAT = 1;

/** A project's reference to a file in its template's media folder (resolved when a project is made from it). */
export const TEMPLATE_MEDIA_PREFIX = 'template-media:';

const MediaFileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$/, 'a plain file name');

export const TemplateMedia = z.object({ file: MediaFileName, sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export type TemplateMedia = z.infer<typeof TemplateMedia>;

export const TemplateFile = z.object({
  format: z.literal(TEMPLATE_FORMAT),
  name: z.string().trim().min(1).max(120),
  description: z.string().max(500),
  createdAt: z.number(),
  /** The project, read with parseProject (so an old document is upgraded and a bad one named). */
  project: z.unknown(),
  media: z.array(TemplateMedia).max(500),
  thumbnail: MediaFileName.nullable(),
});
export type TemplateFile = z.infer<typeof TemplateFile>;

export function templateMediaReference(file: string): string {
  return `${TEMPLATE_MEDIA_PREFIX}${file}`;
}

/** The media file a template reference names, or null for any other url. */
export function templateMediaFile(url: string): string | null {
  return url.startsWith(TEMPLATE_MEDIA_PREFIX) ? url.slice(TEMPLATE_MEDIA_PREFIX.length) : null;
}

/** The project with every media reference (elements and url voices) passed through `map`. */
export function mapMediaUrls(project: Project, map: (url: string) => string): Project {
  return {
    ...project,
    scenes: project.scenes.map((scene) => ({
      ...scene,
      voice: scene.voice?.kind === 'url' ? { ...scene.voice, url: map(scene.voice.url) } : scene.voice,
      elements: scene.elements.map((e) => (e.url ? { ...e, url: map(e.url) } : e)),
    })),
  };
}

/** Every media reference of a project, each once. */
export function mediaUrlsOf(project: Project): string[] {
  const urls = new Set<string>();
  mapMediaUrls(project, (url) => {
    urls.add(url);
    return url;
  });
  return [...urls];
}

export interface CatalogueFacts {
  avatars: ReadonlyArray<{ avatarId: string; url: string; from: 2 | 3 }>;
  voices: readonly string[];
}

/**
 * A template's avatars and voices against the catalogue of the connection in use: an avatar's link is
 * the connection's (links carry its address), and one the catalogue lacks is played by its first
 * official avatar in the same box, as is a voice by its first voice. Notes say what was replaced.
 */
export function relinkToCatalogue(project: Project, catalogue: CatalogueFacts): { project: Project; notes: string[] } {
  const notes: string[] = [];
  const stand = catalogue.avatars.find((a) => a.from === 2) ?? catalogue.avatars[0];
  const avatar = (e: SceneElement): SceneElement => {
    if (e.type !== 'avatar') return e;
    const found = catalogue.avatars.find((a) => a.avatarId === e.avatarId);
    if (found) return { ...e, url: found.url, avatarFrom: found.from, urlFrom: 'catalogue' };
    if (!stand) return e;
    notes.push(
      `The avatar "${e.name ?? e.avatarId}" is not in this connection's catalogue; ${stand.avatarId} stands in.`,
    );
    return { ...e, url: stand.url, avatarId: stand.avatarId, avatarFrom: stand.from, urlFrom: 'catalogue' };
  };
  const voiceId = (id: string): string => {
    if (catalogue.voices.includes(id) || catalogue.voices.length === 0) return id;
    notes.push(`The voice ${id} is not in this connection's catalogue; ${catalogue.voices[0]} speaks instead.`);
    return catalogue.voices[0];
  };
  const scenes = project.scenes.map((scene) => ({
    ...scene,
    voice: scene.voice?.kind === 'tts' ? { ...scene.voice, voiceId: voiceId(scene.voice.voiceId) } : scene.voice,
    elements: scene.elements.map(avatar),
  }));
  return { project: { ...project, scenes }, notes: [...new Set(notes)] };
}
