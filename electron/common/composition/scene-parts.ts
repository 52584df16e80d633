import type { Scene, SceneElement } from './document';
import { shownSpan } from './timing-span';

/**
 * Element timing in an avatar-video body. The interface gives elements no time, but each `data` item has
 * its own `duration` (ms), its own `elements` and its own `voice.voice_url`, and the items play one after
 * another (the top-level duration is their sum). So a scene whose elements appear or leave inside it is
 * sent as consecutive items cut at those moments, each with the elements on screen in its span and the
 * piece of the scene's sound that plays then (cut by the host at submit, named by voicePartReference
 * until then). A talking-avatar body has one scene and no duration, so it cannot be cut this way.
 */
export interface ScenePart {
  fromMs: number;
  toMs: number;
  /** The elements shown for the whole of this part (a cut falls at every start and end). */
  elements: SceneElement[];
}

/** The moments inside the scene where an element appears or leaves, in order (none: the scene is one part). */
export function sceneCuts(scene: Pick<Scene, 'durationMs' | 'elements'>): number[] {
  const cuts = new Set<number>();
  for (const element of scene.elements) {
    // Audio is the scene's sound, not a picture; it has no place in a cut.
    if (element.type === 'audio') continue;
    const { from, to } = shownSpan(element, scene);
    for (const ms of [from, to]) if (ms > 0 && ms < scene.durationMs) cuts.add(ms);
  }
  return [...cuts].sort((a, b) => a - b);
}

export function sceneParts(scene: Pick<Scene, 'durationMs' | 'elements'>): ScenePart[] {
  const bounds = [0, ...sceneCuts(scene), scene.durationMs];
  const parts: ScenePart[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const fromMs = bounds[i];
    const toMs = bounds[i + 1];
    const elements = scene.elements.filter((e) => {
      if (e.type === 'audio') return true;
      const { from, to } = shownSpan(e, scene);
      return from <= fromMs && to >= toMs && from < to;
    });
    parts.push({ fromMs, toMs, elements });
  }
  return parts;
}

/** For each item of the project's avatar-video body, the index of the scene it is part of. */
export function itemScenes(scenes: readonly Pick<Scene, 'durationMs' | 'elements'>[]): number[] {
  return scenes.flatMap((scene, sceneIndex) => sceneParts(scene).map(() => sceneIndex));
}

/** What a part of a cut scene sends as its voice until the host has cut the scene's sound: `studio-voice-part:<scene>@<from>-<to>`. */
export const VOICE_PART_PREFIX = 'studio-voice-part:';

export function voicePartReference(sceneId: string, fromMs: number, toMs: number): string {
  return `${VOICE_PART_PREFIX}${sceneId}@${fromMs}-${toMs}`;
}

export function parseVoicePart(reference: string): { sceneId: string; fromMs: number; toMs: number } | null {
  if (!reference.startsWith(VOICE_PART_PREFIX)) return null;
  const match = /^(.+)@(\d+)-(\d+)$/.exec(reference.slice(VOICE_PART_PREFIX.length));
  if (!match) return null;
  const fromMs = Number(match[2]);
  const toMs = Number(match[3]);
  return toMs > fromMs ? { sceneId: match[1], fromMs, toMs } : null;
}

/** Every voice-part reference a body names, once each, in order. */
export function voicePartsIn(body: unknown): string[] {
  const found = new Set<string>();
  const escaped = VOICE_PART_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of JSON.stringify(body).matchAll(new RegExp(`"(${escaped}[^"]+)"`, 'g'))) found.add(m[1]);
  return [...found];
}
