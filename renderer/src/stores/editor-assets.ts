import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { mediaKindByExtension, type MediaKindName } from '@common/media-types';
import type { MediaInfo } from '@common/composition/media-info';
import { UNSUPPORTED_PICTURES } from '@common/composition/media-format';
import { mediaRefusal } from '@common/composition/media-fields';

/** An avatar as the editor shows it (from the active connection's catalogue). */
export interface CatalogueAvatar {
  avatarId: string;
  name: string;
  url: string;
  thumbnailUrl: string | null;
  /** 2 official, 3 uploaded by the user. */
  from: 2 | 3;
  gender: string | null;
  /** An upload the service is still processing: listed, but not usable yet. */
  processing?: boolean;
}

export interface CatalogueVoice {
  voiceId: string;
  name: string;
  gender: string | null;
  accent: string | null;
  preview: string | null;
  /** 3 official, 4 the user's own. */
  from: 3 | 4;
}

export type { MediaKindName };

export interface MediaAsset {
  url: string;
  kind: MediaKindName;
  name: string;
  /**
   * The file's own size as the host measured it (ffprobe, rotation applied). A local picture is shown
   * from a still at most 1280 px wide, so the size read from what the page loaded is not the file's.
   */
  size?: { width: number; height: number };
}

/** Where the catalogue comes from; the editor view plugs in the bridge, tests plug in fakes. */
export interface CatalogueSource {
  avatars(): Promise<CatalogueAvatar[]>;
  voices(): Promise<CatalogueVoice[]>;
}

const MEDIA_KEY = 'studio.editor.media';

/** Media kind from a URL's extension or a MIME type; null when it is none the service takes. */
export function mediaKindOf(url: string, mime?: string): MediaKindName | null {
  if (mime) {
    const top = mime.split('/')[0];
    if (top === 'image' || top === 'video' || top === 'audio') return top;
  }
  return mediaKindByExtension(url);
}

/**
 * Checks a URL typed or pasted by the user; returns a reason when it cannot be used. Its kind is read
 * from its name; `allowUnnamed` lets a link whose name says nothing through (kind null) for a probe.
 */
export function checkMediaUrl(
  text: string,
): { ok: true; url: string; kind: MediaKindName } | { ok: false; error: string };
export function checkMediaUrl(
  text: string,
  options: { allowUnnamed: true },
): { ok: true; url: string; kind: MediaKindName | null } | { ok: false; error: string };
export function checkMediaUrl(
  text: string,
  options: { allowUnnamed?: boolean } = {},
): { ok: true; url: string; kind: MediaKindName | null } | { ok: false; error: string } {
  const url = text.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: `"${url.slice(0, 80)}" is not a link (it should start with https://)` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, error: `Only http and https links can be sent to the service (got ${parsed.protocol})` };
  }
  const kind = mediaKindOf(parsed.pathname);
  if (!kind && !options.allowUnnamed) return { ok: false, error: cannotTell(parsed.pathname.split('/').pop() || url) };
  return { ok: true, url, kind };
}

/** What the host's probe found in a link (media.probe); null or a throw when it could not tell. */
export type LinkProbe = (url: string) => Promise<Pick<MediaInfo, 'kind' | 'format'> | null>;

/**
 * A link the user adds, as a media asset whose kind is what the link holds (the host's probe reads
 * it), so a photo served without an extension is a picture and a video named ".jpg" a video. When the
 * probe cannot reach it, the name decides, and the pre-flight checks it again before anything is sent.
 */
export async function linkAsset(
  text: string,
  probe: LinkProbe,
): Promise<{ ok: true; asset: MediaAsset } | { ok: false; error: string }> {
  const checked = checkMediaUrl(text, { allowUnnamed: true });
  if (!checked.ok) return checked;
  const name = decodeURIComponent(new URL(checked.url).pathname.split('/').pop() || checked.url);
  const found = await probe(checked.url).catch(() => null);
  if (found && UNSUPPORTED_PICTURES.has(found.format))
    return { ok: false, error: `${name}: ${mediaRefusal('element-image', found)}` };
  const kind = found?.kind ?? checked.kind;
  if (!kind) return { ok: false, error: cannotTell(name) };
  return { ok: true, asset: { url: checked.url, kind, name } };
}

const cannotTell = (name: string): string =>
  `Cannot tell what "${name}" is: use a link ending in .png, .jpg, .webp, .mp4, .mov, .mp3 or .wav`;

/** The asset panel's data: the catalogue of the active connection and the media the user added. */
export const useEditorAssetsStore = defineStore('editor-assets', () => {
  const avatars = shallowRef<CatalogueAvatar[]>([]);
  const voices = shallowRef<CatalogueVoice[]>([]);
  const media = ref<MediaAsset[]>(readMedia());
  const loading = ref(false);
  const error = ref<string | null>(null);
  const source = shallowRef<CatalogueSource | null>(null);

  const avatarById = computed(() => new Map(avatars.value.map((a) => [a.avatarId, a])));
  const voiceById = computed(() => new Map(voices.value.map((v) => [v.voiceId, v])));

  function useSource(next: CatalogueSource | null): void {
    source.value = next;
  }

  let inFlight: { from: CatalogueSource; done: Promise<void> } | null = null;

  /** Loads the catalogue; a call while one from the same source is under way joins it. */
  function load(): Promise<void> {
    const from = source.value;
    if (!from) return Promise.resolve();
    if (inFlight?.from === from) return inFlight.done;
    const done = fetchFrom(from).finally(() => {
      if (inFlight?.done === done) inFlight = null;
    });
    inFlight = { from, done };
    return done;
  }

  let loadedFrom: CatalogueSource | null = null;

  /** Loads the catalogue unless it is already here (or on its way) from the current source. */
  function ensureLoaded(): Promise<void> {
    if (source.value && loadedFrom === source.value && !error.value) return Promise.resolve();
    return load();
  }

  async function fetchFrom(from: CatalogueSource): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const [a, v] = await Promise.all([from.avatars(), from.voices()]);
      avatars.value = a;
      voices.value = v;
      loadedFrom = from;
    } catch (e) {
      error.value = (e as Error).message;
    } finally {
      loading.value = false;
    }
  }

  function addMedia(asset: MediaAsset): void {
    media.value = [asset, ...media.value.filter((m) => m.url !== asset.url)].slice(0, 200);
    writeMedia(media.value);
  }

  function removeMedia(url: string): void {
    media.value = media.value.filter((m) => m.url !== url);
    writeMedia(media.value);
  }

  /** Thumbnail or first frame for an avatar on the canvas. */
  function avatarPicture(avatarId: string | undefined, url: string): string | null {
    const a = avatarId ? avatarById.value.get(avatarId) : undefined;
    return a?.thumbnailUrl ?? a?.url ?? (url || null);
  }

  return {
    avatars,
    voices,
    media,
    loading,
    error,
    source,
    avatarById,
    voiceById,
    useSource,
    load,
    ensureLoaded,
    addMedia,
    removeMedia,
    avatarPicture,
  };
});

function readMedia(): MediaAsset[] {
  try {
    const raw = globalThis.localStorage?.getItem(MEDIA_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (m): m is MediaAsset =>
        typeof m?.url === 'string' && typeof m?.name === 'string' && ['image', 'video', 'audio'].includes(m?.kind),
    );
  } catch {
    return [];
  }
}

function writeMedia(list: MediaAsset[]): void {
  try {
    globalThis.localStorage?.setItem(MEDIA_KEY, JSON.stringify(list));
  } catch {
    // Storage full or unavailable: the list still works for this session.
  }
}
