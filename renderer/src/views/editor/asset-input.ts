import type { MessageApi } from 'naive-ui';
import type { useEditorInsert } from '@/composables/editor-insert';
import { takeInLocalFiles } from '@/composables/local-files';
import { call } from '@/bridge';
import {
  linkAsset,
  type LinkProbe,
  type CatalogueAvatar,
  type CatalogueVoice,
  type MediaAsset,
  type useEditorAssetsStore,
} from '@/stores/editor-assets';
import type { useProjectStore } from '@/stores/project';
import { ASSET_MIME, decodeAssetDrag } from './asset-drag';

type Point = { x: number; y: number };

/**
 * What a link holds, from the host's pre-flight of it (fetched and read by ffprobe, and remembered for
 * the Problems check that follows): the kind a pasted or typed link is added as.
 */
export const probeLink: LinkProbe = async (url) => {
  const [report] = await call('media.checkLinks', { urls: [url] });
  return report?.kind && report.format ? { kind: report.kind, format: report.format } : null;
};

export interface AssetInputDeps {
  insert: ReturnType<typeof useEditorInsert>;
  project: ReturnType<typeof useProjectStore>;
  assets: ReturnType<typeof useEditorAssetsStore>;
  message: Pick<MessageApi, 'success' | 'error'>;
  /** Reads what a link holds; the host's probe unless a test brings its own. */
  probe?: LinkProbe;
  /** Where a point of the window falls in the output frame, when the canvas is there. */
  pointAt(clientX: number, clientY: number): Point | undefined;
}

/**
 * What reaches the scene from outside the canvas: the asset panel's buttons, a drag from the panel or
 * from the desktop onto the canvas, and Ctrl+V of a link or files. Each says what it did or why not.
 */
export function useAssetInput(deps: AssetInputDeps) {
  const { insert, project, assets, message } = deps;

  async function addAvatar(avatar: CatalogueAvatar, at?: Point): Promise<void> {
    await insert.addAvatar(avatar, at);
  }

  async function addMedia(asset: MediaAsset, at?: Point): Promise<void> {
    await insert.addMedia(asset, at);
    if (asset.kind === 'audio' && project.doc.kind === 'avatar-video')
      message.success(`${asset.name} is now the voice of this scene`);
  }

  function useVoice(voice: CatalogueVoice): void {
    insert.useVoice(voice);
    message.success(`${voice.name} speaks in this scene; write its script in the inspector`);
  }

  /** Files from the desktop: taken in by the host, added to the media list and to the scene. */
  async function addLocalFiles(list: File[], at?: Point): Promise<void> {
    const { assets: added, errors } = await takeInLocalFiles(list);
    for (const asset of added) {
      assets.addMedia(asset);
      await addMedia(asset, at);
    }
    for (const error of errors) message.error(error);
  }

  function onCanvasDrop(evt: DragEvent): void {
    const raw = evt.dataTransfer?.getData(ASSET_MIME);
    const drag = raw ? decodeAssetDrag(raw) : null;
    const at = deps.pointAt(evt.clientX, evt.clientY);
    if (!drag) {
      const dropped = [...(evt.dataTransfer?.files ?? [])];
      if (dropped.length > 0) void addLocalFiles(dropped, at);
      return;
    }
    if (drag.kind === 'avatar') {
      const avatar = assets.avatarById.get(drag.avatarId);
      if (avatar) void addAvatar(avatar, at);
    } else {
      const asset = assets.media.find((m) => m.url === drag.url) ?? {
        url: drag.url,
        kind: drag.mediaKind,
        name: drag.url,
      };
      void addMedia(asset, at);
    }
  }

  async function addLink(text: string): Promise<void> {
    const found = await linkAsset(text, deps.probe ?? probeLink);
    if (!found.ok) {
      message.error(found.error);
      return;
    }
    assets.addMedia(found.asset);
    await addMedia(found.asset);
  }

  /** Ctrl+V outside text fields: a link becomes media in the scene; otherwise copied elements paste. */
  function onPaste(data: DataTransfer): void {
    const text = data.getData('text/plain').trim();
    if (text && /^https?:\/\//i.test(text)) {
      void addLink(text);
      return;
    }
    if (data.files.length > 0) {
      void addLocalFiles([...data.files]);
      return;
    }
    project.paste();
  }

  return { addAvatar, addMedia, useVoice, onCanvasDrop, onPaste };
}
