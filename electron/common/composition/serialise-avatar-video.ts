import type { AvatarVideoBody, AvatarVideoElement, AvatarVideoScene } from '../api/video';
import { ratioOf, type MediaSize, type Project, type Scene, type SceneElement } from './document';
import { elementBox, stackingOrder } from './geometry';
import { DEFAULT_PLACEMENT, toWire, type PlacementConvention } from './placement';
import { effectiveAvatarFrom, voiceAudioUrl } from './rules';
import { pictureSize, textReference } from './text-ops';
import { musicReference } from './music-schema';
import { sceneTrack } from './music-track';
import { sceneParts, voicePartReference, type ScenePart } from './scene-parts';

/**
 * Project → POST /api/open/v3/avatar/createVideo body. Exact field names and case from the interface.
 *
 * Each element's box (geometry.ts) becomes scale and offset by the connection's placement convention
 * (placement.ts; the service's own examples, centre and frame, when none is given). Elements are
 * listed bottom first; layer_number keeps the document's layer. A scene whose elements are timed inside
 * it becomes consecutive items cut where they appear and leave (scene-parts.ts), each with its piece of
 * the scene's sound, so the video shows them when the preview does.
 *
 * This does not validate: call validateProject (or exportBody, which does both) before sending.
 */
export interface SerialiseOptions {
  webhookUrl?: string;
  /** The connection's convention; DEFAULT_PLACEMENT when not given. */
  placement?: PlacementConvention;
}

export function toAvatarVideoBody(project: Project, options: SerialiseOptions = {}): AvatarVideoBody {
  const placement = options.placement ?? DEFAULT_PLACEMENT;
  const data = project.scenes.flatMap((scene) =>
    sceneParts(scene).map((part, _, parts) => sceneItem(project, scene, part, parts.length > 1, placement)),
  );
  const body: AvatarVideoBody = { data, duration: data.reduce((sum, item) => sum + (item.duration ?? 0), 0) };
  if (options.webhookUrl) body.webhookUrl = options.webhookUrl;
  return body;
}

function sceneItem(
  project: Project,
  scene: Scene,
  part: ScenePart,
  cut: boolean,
  placement: PlacementConvention,
): AvatarVideoScene {
  const music = sceneTrack(project, scene) !== null;
  const item: AvatarVideoScene = {
    width: project.output.width,
    height: project.output.height,
    duration: part.toMs - part.fromMs,
    // A scene with music sends the studio's mix of it under the voice, linked at submit (musicReference);
    // a cut scene sends the piece of its sound (that mix, or the voice) that plays in this part.
    voice:
      cut && (music || scene.voice)
        ? { voice_url: voicePartReference(scene.id, part.fromMs, part.toMs) }
        : music
          ? { voice_url: musicReference(scene.id) }
          : voiceOf(scene),
    elements: stackingOrder(part.elements).map((e) => elementOf(e, project, placement)),
    ratio: ratioOf(project.output),
    background: project.background,
  };
  const avatar = part.elements.find((e) => e.type === 'avatar');
  if (avatar) item.avatarFrom = effectiveAvatarFrom(avatar);
  return item;
}

function voiceOf(scene: Scene): AvatarVideoScene['voice'] {
  if (!scene.voice) return {};
  const url = voiceAudioUrl(scene.voice);
  if (url) return { voice_url: url };
  // A voiceover not generated yet: the rule "voice_id or voice_url" lets the voice id stand in.
  return scene.voice.kind === 'tts' ? { voice_id: scene.voice.voiceId } : {};
}

function elementOf(element: SceneElement, project: Project, placement: PlacementConvention): AvatarVideoElement {
  const out: AvatarVideoElement = {
    id: element.id,
    // The service has no text: it gets the studio's picture of it, linked at submit (textReference).
    type: element.type === 'text' ? 'image' : element.type,
    url: element.type === 'text' ? textReference(element.id) : element.url,
    ...wirePlacement(element, project, placement),
    layer_number: element.layer,
  };
  if (element.type === 'avatar' && element.avatarId) out.avatar_id = element.avatarId;
  return out;
}

/** The element's wire placement; validateProject reports an element whose media size is missing. */
export function wirePlacement(
  element: SceneElement,
  project: Project,
  placement: PlacementConvention,
): Pick<AvatarVideoElement, 'scale_x' | 'scale_y' | 'offset_x' | 'offset_y'> {
  const wire = toWire(elementBox(element), project.output, placement, sentMediaSize(element));
  if (!wire)
    throw new Error(`Element ${element.id}: its media's own size is not known, which the connection's placement needs`);
  return wire;
}

/** The size of the media the service is sent for an element: a text element's picture is drawn at its box. */
export function sentMediaSize(element: SceneElement): MediaSize | undefined {
  return element.type === 'text' ? pictureSize(element) : element.mediaSize;
}
