import type { AvatarVideoBody, TalkingAvatarBody } from '../api/video';
import type { ElementType, MediaSize, OutputSize } from './document';
import { stackingOrder } from './geometry';
import { DEFAULT_PLACEMENT, fromWire, type PlacementConvention } from './placement';
import {
  elementLabel,
  planAudio,
  planLayer,
  sceneLabel,
  type PlanAudio,
  type PlanLayer,
  type PlanScene,
  type RenderPlan,
  type ResolveInput,
} from './render-plan';

/**
 * Plans from request bodies, for the sandbox: it renders what a request describes with the same
 * compositor the preview uses, so the preview and the sandbox's result agree. Scale and offset are
 * read by a placement convention (placement.ts): the sandbox's own, the service's examples' by default.
 */
export interface BodyPlanOptions {
  placement?: PlacementConvention;
  /** The media's own size, which a convention whose scale is of the element needs. */
  mediaSize?: (media: { url?: string; avatarId?: string }) => MediaSize | undefined;
}

interface BodyElement {
  type: string;
  url?: string;
  scale_x?: number;
  scale_y?: number;
  offset_x?: number;
  offset_y?: number;
  layer_number?: number;
  avatar_id?: string;
  id?: string;
  input_text?: string;
  voice_id?: string;
}

const DEFAULT_TALKING_AVATAR_MS = 5000;

/**
 * An avatar-video body → plan. The video takes the first scene's size (all scenes share one frame);
 * each `data` item is a scene of its `duration` ms (the top-level `duration` split evenly when an
 * item has none, 5 s otherwise), its `voice.voice_url` the sound.
 */
export function planFromAvatarVideoBody(
  body: AvatarVideoBody,
  resolve: ResolveInput,
  options: BodyPlanOptions = {},
): RenderPlan {
  const notes: string[] = [];
  const first = body.data[0];
  const output: OutputSize = { width: first.width, height: first.height };
  const missing = body.data.filter((item) => item.duration === undefined).length;
  const assigned = body.data.reduce((sum, item) => sum + (item.duration ?? 0), 0);
  const fallback =
    body.duration !== undefined && missing > 0 ? Math.max(100, (body.duration - assigned) / missing) : 5000;
  const scenes = body.data.map((item, sceneIndex): PlanScene => {
    const sceneId = `scene-${sceneIndex + 1}`;
    const text = sceneLabel(sceneIndex, sceneId);
    const { layers, audio } = bodyElements(item.elements, output, sceneIndex, sceneId, resolve, notes, options);
    const voiceUrl = item.voice?.voice_url;
    if (voiceUrl) {
      const track = planAudio(
        { type: 'voice', url: voiceUrl, sceneIndex, sceneId, label: `${text}, voice` },
        resolve,
        notes,
      );
      if (track) audio.unshift(track);
    } else if (item.voice?.voice_id) {
      notes.push(`${text}, voice: voice_id only, no audio to play`);
    }
    return { durationMs: Math.round(item.duration ?? fallback), layers, audio };
  });
  return { width: output.width, height: output.height, background: first.background ?? 'white', scenes, notes };
}

/**
 * A talking-avatar body → one-scene plan. The body carries no duration (the service derives it from
 * the speech), so the caller passes it, e.g. the probed length of the audio; 5 s otherwise.
 */
export function planFromTalkingAvatarBody(
  body: TalkingAvatarBody,
  resolve: ResolveInput,
  options: BodyPlanOptions & { durationMs?: number; background?: string } = {},
): RenderPlan {
  const notes: string[] = [];
  const output: OutputSize = { width: body.width, height: body.height };
  const { layers, audio } = bodyElements(body.elements, output, 0, 'scene-1', resolve, notes, options);
  return {
    width: output.width,
    height: output.height,
    background: options.background ?? 'white',
    scenes: [{ durationMs: Math.round(options.durationMs ?? DEFAULT_TALKING_AVATAR_MS), layers, audio }],
    notes,
  };
}

function bodyElements(
  elements: readonly BodyElement[],
  output: OutputSize,
  sceneIndex: number,
  sceneId: string,
  resolve: ResolveInput,
  notes: string[],
  options: BodyPlanOptions,
): { layers: PlanLayer[]; audio: PlanAudio[] } {
  const placement = options.placement ?? DEFAULT_PLACEMENT;
  const layers: PlanLayer[] = [];
  const audio: PlanAudio[] = [];
  const sceneText = sceneLabel(sceneIndex, sceneId);
  const withLayer = elements.map((e, i) => ({ e, i, layer: e.layer_number ?? 0 }));
  for (const { e, i } of stackingOrder(withLayer)) {
    const elementId = e.id ?? `${e.type}-${i + 1}`;
    const label = elementLabel(sceneText, elementId);
    const base = { sceneIndex, sceneId, elementId, label };
    if (e.type === 'audio') {
      const text = e.input_text && e.voice_id ? { text: e.input_text, voiceId: e.voice_id } : undefined;
      const track = planAudio({ role: 'element', type: 'audio', url: e.url || null, text, ...base }, resolve, notes);
      if (track) audio.push(track);
      continue;
    }
    const box = fromWire(e, output, placement, options.mediaSize?.({ url: e.url, avatarId: e.avatar_id }));
    if (!box) {
      notes.push(`${label}: the media's own size is not known, so its scale cannot be read`);
      continue;
    }
    const layer = planLayer(
      { type: e.type as ElementType, url: e.url ?? '', avatarId: e.avatar_id, ...box },
      base,
      resolve,
      notes,
    );
    if (layer) layers.push(layer);
  }
  return { layers, audio };
}
