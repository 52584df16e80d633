import { MAX_SIDE, type Project, type ProjectKind, type Scene, type SceneElement } from './document';
import { DEFAULT_PLACEMENT, placementLabel, type PlacementConvention } from './placement';
import { capitalise, sceneLabel } from './render-plan';
import type { Add, Where } from './check-where';
import { checkFrameFit, checkSomethingVisible, checkWirePlacement } from './frame-checks';
import type { Problem } from './problem';
import { recordedFontProblem, textStyleProblem, type FontRecord } from './text-style';
import { musicProblems } from './music-checks';
import { sceneTrack } from './music-track';
import { checkElementTiming } from './element-timing';
import {
  PLAN_LABELS,
  TALKING_AVATAR_IMAGE_EXT,
  TALKING_AVATAR_VIDEO_EXT,
  TEXT_LIMITS,
  effectiveAvatarFrom,
  extensionOf,
  urlKind,
  voiceAudioUrl,
  type PlanTier,
} from './rules';

export type { Problem };

export interface ValidateOptions {
  /** Which body the project will become; defaults to the project's kind. */
  target?: ProjectKind;
  purpose?: 'submit' | 'preview';
  /** The account's plan, for the talking-avatar text limit; Pro when unknown. */
  plan?: PlanTier;
  /** The connection's placement convention (DEFAULT_PLACEMENT when not given): scale limits apply to it. */
  placement?: PlacementConvention;
}

/**
 * Checks a project against every rule the interface documents, before anything is sent. Returns a
 * list (empty when all is well) so the editor can show each problem beside its scene and element.
 * `purpose: 'preview'` relaxes what only matters to the service (local files, colour images, a
 * voiceover not generated yet), so a local preview is never blocked by them.
 */
export function validateProject(project: Project, options: ValidateOptions = {}): Problem[] {
  const target = options.target ?? project.kind;
  const submit = (options.purpose ?? 'submit') === 'submit';
  const problems: Problem[] = [];
  const add = (level: Problem['level'], code: string, text: string, where?: Where): void => {
    problems.push({ level, code, message: where ? `${where.prefix}: ${text}` : text, ...(where ? strip(where) : {}) });
  };

  for (const side of ['width', 'height'] as const) {
    const value = project.output[side];
    if (!Number.isInteger(value) || value < 1 || value > MAX_SIDE)
      add('error', 'output-size', `Output ${side} must be a whole number of pixels up to ${MAX_SIDE} (is ${value}).`);
  }
  if (project.scenes.length === 0) add('error', 'no-scenes', 'The project has no scenes.');
  if (target === 'talking-avatar') checkTalkingAvatar(project, options.plan ?? 'pro', submit, add);

  project.scenes.forEach((scene, sceneIndex) => {
    const here: Where = {
      sceneIndex,
      sceneId: scene.id,
      prefix: capitalise(sceneLabel(sceneIndex, scene.id, scene.name)),
    };
    // A scene of music alone sends the music as its voice.
    if (target === 'avatar-video' && !(scene.voice === null && sceneTrack(project, scene)))
      checkSceneVoice(scene, here, submit, add);
    checkLayers(scene, here, add);
    checkSomethingVisible(project, scene, here, submit, add);
    for (const element of scene.elements) {
      const at: Where = {
        ...here,
        elementId: element.id,
        prefix: `${here.prefix}, element ${element.id}${element.name ? ` (${element.name})` : ''}`,
      };
      checkElement(project, element, target, submit, at, add);
      checkElementTiming(element, scene, target, at, add);
      if (submit) checkWirePlacement(project, element, options.placement ?? DEFAULT_PLACEMENT, at, add);
    }
  });
  problems.push(...musicProblems(project, target, submit));
  return problems;
}

/**
 * A warning while the connection's placement convention is the service's examples' rather than one
 * measured on it (Check placement), or null: the built-in sandbox's is known, a measured one proven.
 */
export function placementProblem(connection: {
  name: string;
  placement: PlacementConvention & { source: string };
}): Problem | null {
  if (connection.placement.source !== 'assumed') return null;
  return {
    level: 'warning',
    code: 'placement-unverified',
    message: `Placement on "${connection.name}" is not verified: elements are sent by ${placementLabel(connection.placement)}, as in the service's examples. Run Check placement in Settings → Connections to measure it.`,
  };
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.level === 'error');
}

function checkSceneVoice(scene: Scene, here: Where, submit: boolean, add: Add): void {
  if (!scene.voice) {
    add(
      submit ? 'error' : 'warning',
      'voice-missing',
      'needs a voice (an audio URL or a voiceover); every avatar-video scene must have one.',
      here,
    );
    return;
  }
  if (scene.voice.kind === 'tts') {
    checkRate(scene.voice.rate, here, add);
    if (!scene.voice.voiceId) add('error', 'voice-id-missing', 'the voiceover has no voice chosen.', here);
    if (!scene.voice.text.trim()) add('error', 'voice-text-missing', 'the voiceover has no text.', here);
  }
  const url = voiceAudioUrl(scene.voice);
  if (!url) {
    add(
      submit ? 'error' : 'warning',
      'voice-not-generated',
      submit
        ? 'the voiceover has not been generated yet; generate it before submitting.'
        : 'the voiceover has not been generated yet, so the preview is silent here.',
      here,
    );
    return;
  }
  checkSendableUrl(url, 'the voice audio', submit, here, add);
}

function checkTalkingAvatar(project: Project, plan: PlanTier, submit: boolean, add: Add): void {
  if (project.scenes.length !== 1)
    add(
      'error',
      'talking-avatar-scenes',
      `A talking avatar has exactly one scene (this project has ${project.scenes.length}).`,
    );
  const scene = project.scenes[0];
  if (!scene) return;
  const here: Where = { sceneIndex: 0, sceneId: scene.id, prefix: capitalise(sceneLabel(0, scene.id, scene.name)) };
  const avatars = scene.elements.filter((e) => e.type === 'avatar');
  if (avatars.length === 0) add('error', 'avatar-missing', 'a talking avatar needs an avatar element.', here);
  const froms = new Set(avatars.map(effectiveAvatarFrom));
  if (froms.size > 1)
    add(
      'error',
      'avatar-from-mixed',
      'mixes official avatars (from 2) with own avatars (from 3); the request has one avatar_from.',
      here,
    );
  const audios = scene.elements.filter((e) => e.type === 'audio');
  if (audios.length === 0 && !scene.voice)
    add('error', 'audio-missing', 'a talking avatar needs an audio element (a URL, or text with a voice).', here);
  // The scene voice stands in for the audio element; as text it goes out as input_text, so it must say something.
  if (audios.length === 0 && scene.voice?.kind === 'tts' && !scene.voice.audioUrl) {
    if (!scene.voice.text.trim())
      add('error', 'voice-text-missing', 'the voiceover script is empty; write what the avatar says.', here);
    if (!scene.voice.voiceId) add('error', 'voice-id-missing', 'the voiceover has no voice chosen.', here);
  }
  let characters = audios.filter((e) => !e.url).reduce((sum, e) => sum + (e.inputText?.length ?? 0), 0);
  if (audios.length === 0 && scene.voice?.kind === 'tts' && !scene.voice.audioUrl)
    characters += scene.voice.text.length;
  const limit = TEXT_LIMITS[plan];
  if (characters > limit) {
    add(
      'error',
      'text-too-long',
      `the speech text has ${characters} characters; the ${PLAN_LABELS[plan]} plan allows ${limit.toLocaleString('en-US')} per request.`,
      here,
    );
  }
  if (submit && scene.voice && audios.length > 0)
    add(
      'warning',
      'voice-ignored',
      'has both a scene voice and an audio element; only the audio element is sent.',
      here,
    );
}

function checkLayers(scene: Scene, here: Where, add: Add): void {
  const byLayer = new Map<number, string[]>();
  for (const e of scene.elements) if (e.type !== 'audio') byLayer.set(e.layer, [...(byLayer.get(e.layer) ?? []), e.id]);
  for (const [layer, ids] of byLayer) {
    if (ids.length > 1)
      add(
        'warning',
        'layer-shared',
        `elements ${ids.join(', ')} share layer ${layer}; the service may stack them differently from the preview.`,
        here,
      );
  }
}

function checkElement(
  project: Project,
  e: SceneElement,
  target: ProjectKind,
  submit: boolean,
  at: Where,
  add: Add,
): void {
  if (e.type !== 'audio') {
    // Nothing of it would be drawn: an error where the result is paid for, a warning for a preview.
    if (e.width <= 0 || e.height <= 0)
      add(submit ? 'error' : 'warning', 'zero-size', 'has zero size and would not be visible.', at);
    else checkFrameFit(project, e, submit, at, add);
  }
  if (target === 'talking-avatar' && e.type === 'video')
    add(
      'error',
      'video-in-talking-avatar',
      'a talking avatar cannot contain video elements (only avatar, image and audio).',
      at,
    );
  if (target === 'avatar-video' && e.type === 'audio')
    add('warning', 'audio-element-ignored', 'audio elements are not part of an avatar video; use the scene voice.', at);

  if (e.type === 'avatar') checkAvatar(e, target, submit, at, add);
  else if (e.type === 'text') checkText(e, project.fonts ?? [], at, add);
  else if (e.type === 'audio') checkAudio(e, target, submit, at, add);
  else checkMedia(e, target, submit, at, add);
}

function checkAvatar(e: SceneElement, target: ProjectKind, submit: boolean, at: Where, add: Add): void {
  const from = effectiveAvatarFrom(e);
  if (from === 2 && !e.avatarId)
    add('error', 'avatar-id-missing', 'an official avatar (from 2) needs its avatar id.', at);
  if (from === 3) {
    if (urlKind(e.url) === 'empty') add('error', 'avatar-url-missing', 'an own avatar (from 3) needs its URL.', at);
    else checkSendableUrl(e.url, 'the avatar', submit, at, add);
  }
  if (target === 'avatar-video' && !e.avatarId)
    add('error', 'avatar-id-missing', 'an avatar element needs its avatar id.', at);
}

function checkAudio(e: SceneElement, target: ProjectKind, submit: boolean, at: Where, add: Add): void {
  if (target !== 'talking-avatar') return;
  const hasUrl = urlKind(e.url) !== 'empty';
  const hasText = Boolean(e.inputText?.trim());
  const hasVoice = Boolean(e.voiceId);
  if (hasUrl) {
    checkSendableUrl(e.url, 'the audio', submit, at, add);
    if (hasText) add('warning', 'url-wins', 'has both a URL and text; the URL wins and the text is ignored.', at);
    return;
  }
  if (!hasText && !hasVoice) add('error', 'audio-empty', 'needs an audio URL, or text with a voice.', at);
  else if (hasText !== hasVoice)
    add('error', 'text-voice-pair', 'text and voice must be given together (input_text with voice_id).', at);
}

function checkMedia(e: SceneElement, target: ProjectKind, submit: boolean, at: Where, add: Add): void {
  const kind = urlKind(e.url);
  if (kind === 'empty') {
    add('error', 'url-missing', `the ${e.type} has no URL.`, at);
    return;
  }
  if (kind === 'colour') {
    if (e.type !== 'image') add('error', 'colour-not-image', 'only an image may be a colour.', at);
    else if (target !== 'talking-avatar')
      add(
        submit ? 'error' : 'warning',
        'colour-image',
        'a colour instead of an image URL is accepted only in a talking avatar.',
        at,
      );
    return;
  }
  checkSendableUrl(e.url, `the ${e.type}`, submit, at, add);
  if (target === 'talking-avatar' && e.type === 'image') {
    const ext = extensionOf(e.url);
    if (ext && ![...TALKING_AVATAR_IMAGE_EXT, ...TALKING_AVATAR_VIDEO_EXT].includes(ext)) {
      add(
        'warning',
        'file-type',
        `".${ext}" may not be accepted; use .png, .jpg, .jpeg or .webp (or .mp4, .mov, .avi).`,
        at,
      );
    }
  }
}

/** A text element is drawn by the studio: it needs words and a font the studio has. */
function checkText(e: SceneElement, fonts: readonly FontRecord[], at: Where, add: Add): void {
  if (!e.text) {
    add('error', 'text-missing', 'is a text element without its text; delete it and add it again.', at);
    return;
  }
  const problem = recordedFontProblem(e.text, fonts) ?? textStyleProblem(e.text);
  if (problem)
    add('error', e.text.content.trim() === '' ? 'text-empty' : 'text-font', problem.replace(/^The /, 'the '), at);
}

function checkSendableUrl(url: string, what: string, submit: boolean, at: Where, add: Add): void {
  const kind = urlKind(url);
  // A file the studio took in (file:) is uploaded to the user's storage when the job is created; a
  // bare path or a blob cannot be, so it must become a link first.
  if (kind === 'local' && submit) {
    if (url.trim().startsWith('file:'))
      add(
        'info',
        'local-upload',
        `${what} is a local file; it is uploaded to your storage when you create the video.`,
        at,
      );
    else
      add(
        'error',
        'local-file',
        `${what} is a local file; use a public http(s) link, or add the file to the media list so the studio can upload it.`,
        at,
      );
  }
  if (kind === 'other') add('error', 'url-invalid', `${what} is not an http(s) link ("${url.slice(0, 60)}").`, at);
}

function checkRate(rate: string, at: Where, add: Add): void {
  const value = Number.parseFloat(rate);
  if (!/^\d{1,3}%$/.test(rate) || value < 0 || value > 100)
    add('error', 'rate-range', `speaking rate must be 0% to 100% (is "${rate}").`, at);
}

function strip(where: Where): Omit<Where, 'prefix'> {
  const { prefix: _prefix, ...rest } = where;
  return rest;
}
