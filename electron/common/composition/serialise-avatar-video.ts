import type { AvatarVideoBody, AvatarVideoElement, AvatarVideoScene } from '../api/video';
import { ratioOf, type Project, type Scene, type SceneElement } from './document';
import { stackingOrder } from './geometry';
import { effectiveAvatarFrom, voiceAudioUrl } from './rules';

/**
 * Project → POST /api/open/v3/avatar/createVideo body. Exact field names and case from the interface.
 *
 * Scale and offset are copied through unchanged: in the document and in the body alike, an element's
 * box is scale_x × width by scale_y × height pixels with its top-left at (offset_x, offset_y) pixels
 * from the top-left of the frame (see geometry.ts, shared with the preview compositor). Elements are
 * listed bottom first; layer_number keeps the document's layer.
 *
 * This does not validate: call validateProject (or exportBody, which does both) before sending.
 */
export interface SerialiseOptions {
  webhookUrl?: string;
}

export function toAvatarVideoBody(project: Project, options: SerialiseOptions = {}): AvatarVideoBody {
  const data = project.scenes.map((scene) => sceneItem(project, scene));
  const body: AvatarVideoBody = { data, duration: data.reduce((sum, item) => sum + (item.duration ?? 0), 0) };
  if (options.webhookUrl) body.webhookUrl = options.webhookUrl;
  return body;
}

function sceneItem(project: Project, scene: Scene): AvatarVideoScene {
  const item: AvatarVideoScene = {
    width: project.output.width,
    height: project.output.height,
    duration: scene.durationMs,
    voice: voiceOf(scene),
    elements: stackingOrder(scene.elements).map(elementOf),
    ratio: ratioOf(project.output),
    background: project.background,
  };
  const avatar = scene.elements.find((e) => e.type === 'avatar');
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

function elementOf(element: SceneElement): AvatarVideoElement {
  const out: AvatarVideoElement = {
    id: element.id,
    type: element.type,
    url: element.url,
    scale_x: element.scaleX,
    scale_y: element.scaleY,
    offset_x: element.offsetX,
    offset_y: element.offsetY,
    layer_number: element.layer,
  };
  if (element.type === 'avatar' && element.avatarId) out.avatar_id = element.avatarId;
  return out;
}
