import type { CatalogueAvatar as WireAvatar, CatalogueVoice as WireVoice } from '@common/bridge';
import { avatarState } from '@common/catalogue/avatar-facts';
import { call } from '@/bridge';
import type { CatalogueAvatar, CatalogueSource, CatalogueVoice } from '@/stores/editor-assets';

/** Avatar record from the service → what the editor needs. Disabled or failed avatars are left out. */
export function toEditorAvatar(a: WireAvatar): CatalogueAvatar | null {
  if (a.disabled || a.status === 4) return null;
  return {
    avatarId: a.avatar_id,
    name: a.name || a.avatar_id,
    url: a.url,
    thumbnailUrl: a.thumbnailUrl || null,
    from: a.from === 3 ? 3 : 2,
    gender: a.gender ?? null,
    ...(avatarState(a) === 'processing' ? { processing: true } : {}),
  };
}

export function toEditorVoice(v: WireVoice): CatalogueVoice | null {
  if (!v.voice_id) return null;
  return {
    voiceId: v.voice_id,
    name: v.name || v.voice_id,
    gender: v.gender || null,
    accent: v.accent || null,
    preview: v.preview || null,
    from: v.from === 4 ? 4 : 3,
  };
}

/** The catalogue of the active connection, through the bridge. */
export const bridgeCatalogue: CatalogueSource = {
  async avatars() {
    const list = await call('catalogue.avatars', {});
    return list.map(toEditorAvatar).filter((a): a is CatalogueAvatar => a !== null);
  },
  async voices() {
    const list = await call('catalogue.voices', {});
    return list.map(toEditorVoice).filter((v): v is CatalogueVoice => v !== null);
  },
};
