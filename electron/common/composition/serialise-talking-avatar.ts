import type { TalkingAvatarBody, TalkingAvatarElement } from '../api/video';
import type { Project, SceneElement, Voice } from './document';
import { elementBox, stackingOrder } from './geometry';
import { effectiveAvatarFrom, voiceAudioUrl } from './rules';
import { DEFAULT_PLACEMENT, type PlacementConvention } from './placement';
import { wirePlacement, type SerialiseOptions } from './serialise-avatar-video';
import { textReference } from './text-ops';
import { musicReference } from './music-schema';
import { sceneTrack } from './music-track';

/**
 * Project → POST /api/open/v3/talkingavatar/create body. Exact field names and case from the interface.
 *
 * A talking avatar is one scene: its elements are serialised bottom first. Each box becomes scale and
 * offset by the connection's placement convention (placement.ts); width/height are the box in pixels. Avatar: with avatar_from 2 (official) only avatar_id is sent, never a URL;
 * with 3 (the caller's own avatar) the URL is sent and avatar_id omitted. Audio: a URL wins over
 * text, so text (input_text + voice_id) is sent only when there is no URL. A scene voice stands in
 * for the audio element when the scene has none.
 *
 * This does not validate: call validateProject (or exportBody) before sending.
 */
export function toTalkingAvatarBody(project: Project, options: SerialiseOptions = {}): TalkingAvatarBody {
  const scene = project.scenes[0];
  const avatar = scene.elements.find((e) => e.type === 'avatar');
  const avatarFrom = avatar ? effectiveAvatarFrom(avatar) : 2;
  // With music, the speech goes out as the studio's mix of music under it, linked at submit (musicReference).
  const music = sceneTrack(project, scene) !== null;
  const elements = stackingOrder(scene.elements)
    .filter((e) => e.type !== 'video' && !(music && e.type === 'audio'))
    .map((e) => elementOf(e, project, avatarFrom, options.placement ?? DEFAULT_PLACEMENT));
  if (music) elements.push({ type: 'audio', url: musicReference(scene.id) });
  else if (!scene.elements.some((e) => e.type === 'audio') && scene.voice) elements.push(voiceElement(scene.voice));

  const body: TalkingAvatarBody = {
    width: project.output.width,
    height: project.output.height,
    avatar_from: avatarFrom,
    elements,
  };
  if (options.webhookUrl) body.webhookUrl = options.webhookUrl;
  return body;
}

function elementOf(
  element: SceneElement,
  project: Project,
  avatarFrom: 2 | 3,
  placement: PlacementConvention,
): TalkingAvatarElement {
  if (element.type === 'audio') return audioElement(element.url, element.inputText, element.voiceId);
  const box = elementBox(element);
  const out: TalkingAvatarElement = {
    type: element.type === 'avatar' ? 'avatar' : 'image',
    ...wirePlacement(element, project, placement),
    width: Math.round(box.width),
    height: Math.round(box.height),
  };
  if (element.type === 'text') out.url = textReference(element.id);
  else if (element.type !== 'avatar') out.url = element.url;
  else if (avatarFrom === 3) out.url = element.url;
  else if (element.avatarId) out.avatar_id = element.avatarId;
  return out;
}

function audioElement(
  url: string | undefined,
  text: string | undefined,
  voiceId: string | undefined,
): TalkingAvatarElement {
  if (url) return { type: 'audio', url };
  const out: TalkingAvatarElement = { type: 'audio' };
  if (text !== undefined) out.input_text = text;
  if (voiceId !== undefined) out.voice_id = voiceId;
  return out;
}

function voiceElement(voice: Voice): TalkingAvatarElement {
  const url = voiceAudioUrl(voice);
  if (url || voice.kind === 'url') return audioElement(url ?? undefined, undefined, undefined);
  return audioElement(undefined, voice.text, voice.voiceId);
}
