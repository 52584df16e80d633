import { fitPlacement, type Box } from '@common/composition';
import type { CatalogueAvatar, CatalogueVoice, MediaAsset } from '@/stores/editor-assets';
import type { useProjectStore } from '@/stores/project';
import type { MediaCache, MediaKind } from './editor-media';

type ProjectStore = ReturnType<typeof useProjectStore>;

/** How long an add waits for a picture's size before placing it with a default aspect. */
const SIZE_WAIT_MS = 4000;

function naturalSize(el: HTMLImageElement | HTMLVideoElement): { width: number; height: number } | null {
  const width = el instanceof HTMLVideoElement ? el.videoWidth : el.naturalWidth;
  const height = el instanceof HTMLVideoElement ? el.videoHeight : el.naturalHeight;
  return width > 0 && height > 0 ? { width, height } : null;
}

/** Natural size of a picture once loaded (or null when it fails or takes too long). */
export function mediaSize(
  media: MediaCache,
  url: string,
  kind: MediaKind,
  waitMs = SIZE_WAIT_MS,
): Promise<{ width: number; height: number } | null> {
  const started = Date.now();
  return new Promise((resolve) => {
    const poll = (): void => {
      const entry = media.get(url, kind);
      if (entry.status === 'ready') resolve(naturalSize(entry.element));
      else if (entry.status === 'error' || Date.now() - started > waitMs) resolve(null);
      else setTimeout(poll, 30);
    };
    poll();
  });
}

/** Centres a box on a drop point (output pixels), keeping its size. */
function centredAt(box: Box, at: { x: number; y: number } | undefined): Box {
  if (!at) return box;
  return { ...box, x: Math.round(at.x - box.width / 2), y: Math.round(at.y - box.height / 2) };
}

/** Adds avatars, media and voices to the current scene, sized to their pictures. */
export function useEditorInsert(project: ProjectStore, media: MediaCache) {
  async function addAvatar(avatar: CatalogueAvatar, at?: { x: number; y: number }): Promise<string | null> {
    const picture = avatar.thumbnailUrl ?? avatar.url;
    const size = picture ? await mediaSize(media, picture, avatar.thumbnailUrl ? 'image' : 'video') : null;
    const output = project.doc.output;
    const placement = centredAt(fitPlacement(size ?? { width: 9, height: 16 }, output, 0.9), at);
    return project.addToScene({
      type: 'avatar',
      url: avatar.url,
      avatarId: avatar.avatarId,
      avatarFrom: avatar.from,
      // Sent with its link in the sending connection's catalogue, which may not be this one.
      urlFrom: 'catalogue',
      name: avatar.name,
      ...placement,
      ...(size ? { mediaSize: size } : {}),
    });
  }

  async function addMedia(asset: MediaAsset, at?: { x: number; y: number }): Promise<string | null> {
    if (asset.kind === 'audio') {
      // Audio is sound, not a picture: in an avatar video it is the scene's voice; a talking avatar
      // carries it as an audio element.
      if (project.doc.kind === 'avatar-video') {
        project.setSceneVoice(project.currentScene.id, { kind: 'url', url: asset.url });
        return null;
      }
      return project.addToScene({ type: 'audio', url: asset.url, x: 0, y: 0, width: 0, height: 0, name: asset.name });
    }
    // The host's measure of the file first: what the page loaded may be a smaller still of it.
    const size = asset.size ?? (await mediaSize(media, asset.url, asset.kind));
    const output = project.doc.output;
    const placement = centredAt(fitPlacement(size ?? { width: 16, height: 9 }, output, 0.5), at);
    return project.addToScene({
      type: asset.kind,
      url: asset.url,
      name: asset.name,
      ...placement,
      ...(size ? { mediaSize: size } : {}),
    });
  }

  /** Uses a catalogue voice for the current scene as a voiceover (text to be written). */
  function useVoice(voice: CatalogueVoice): void {
    const scene = project.currentScene;
    const current = scene.voice;
    const text = current?.kind === 'tts' ? current.text : '';
    const rate = current?.kind === 'tts' ? current.rate : '50%';
    project.setSceneVoice(scene.id, { kind: 'tts', voiceId: voice.voiceId, text, rate });
  }

  return { addAvatar, addMedia, useVoice };
}
