import type { AvatarFrom, SceneElement, Voice } from './document';

/** Small rule helpers shared by the serialisers and the validator, so both read the same facts. */

/** Characters of talking-avatar audio input_text per request, by plan. */
export const TEXT_LIMITS = { pro: 5000, 'pro-max': 10000, business: 50000 } as const;
export type PlanTier = keyof typeof TEXT_LIMITS;
export const PLAN_LABELS: Record<PlanTier, string> = { pro: 'Pro', 'pro-max': 'Pro Max', business: 'Business' };

/** An avatar's `from`: as remembered from the catalogue, else 2 when known by id, else 3 (own URL). */
export function effectiveAvatarFrom(element: Pick<SceneElement, 'avatarFrom' | 'avatarId'>): AvatarFrom {
  return element.avatarFrom ?? (element.avatarId ? 2 : 3);
}

/** The audio a voice plays, if it exists yet. */
export function voiceAudioUrl(voice: Voice): string | null {
  return voice.kind === 'url' ? voice.url : (voice.audioUrl ?? null);
}

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

export type UrlKind = 'remote' | 'local' | 'colour' | 'empty' | 'other';

/** Classifies a media reference: remote links can be sent; local files only previewed. */
export function urlKind(url: string): UrlKind {
  const value = url.trim();
  if (value === '') return 'empty';
  if (HEX_COLOUR.test(value)) return 'colour';
  if (/^https?:\/\/[^\s/]+/i.test(value)) return 'remote';
  if (/^(file:|blob:|data:|media:)/i.test(value) || value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value))
    return 'local';
  return 'other';
}

/** The file extension of a URL's path, lower case, without the dot ('' when none). */
export { fileExtension as extensionOf } from '../media-types';

export const TALKING_AVATAR_IMAGE_EXT = ['png', 'jpg', 'jpeg', 'webp'];
export const TALKING_AVATAR_VIDEO_EXT = ['mp4', 'mov', 'avi'];
