import type { MediaKindName } from '@/stores/editor-assets';

/** Drag-and-drop payload from the asset panel to the canvas (a private MIME type, JSON). */
export const ASSET_MIME = 'application/x-studio-asset';

export type AssetDrag = { kind: 'avatar'; avatarId: string } | { kind: 'media'; url: string; mediaKind: MediaKindName };

export function encodeAssetDrag(payload: AssetDrag): string {
  return JSON.stringify(payload);
}

export function decodeAssetDrag(text: string): AssetDrag | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    if (v.kind === 'avatar' && typeof v.avatarId === 'string') return { kind: 'avatar', avatarId: v.avatarId };
    if (
      v.kind === 'media' &&
      typeof v.url === 'string' &&
      (v.mediaKind === 'image' || v.mediaKind === 'video' || v.mediaKind === 'audio')
    ) {
      return { kind: 'media', url: v.url, mediaKind: v.mediaKind };
    }
    return null;
  } catch {
    return null;
  }
}
