import {
  elementBox,
  firstLine,
  isVisual,
  stackingOrder,
  type OutputSize,
  type Scene,
  type SceneElement,
} from '@common/composition';
import type { CanvasItem } from './types';

/** Looks up the picture that stands for an avatar on the canvas (its catalogue thumbnail). */
export type AvatarPicture = (avatarId: string | undefined, url: string) => string | null;
/** The rasterised picture of a text element (a data: PNG), null while it is drawn. */
export type TextPicture = (element: SceneElement) => string | null;
const NO_TEXT: TextPicture = () => null;

/** The canvas's view of a scene: visual elements in drawing order, in output pixels. */
export function sceneToItems(
  scene: Scene,
  output: OutputSize,
  avatarPicture: AvatarPicture,
  textPicture: TextPicture = NO_TEXT,
): CanvasItem[] {
  return stackingOrder(scene.elements)
    .filter(isVisual)
    .map((element) => elementToItem(element, output, avatarPicture, textPicture));
}

/**
 * sceneToItems that hands back the same item object for an element the last edit did not touch
 * (operations keep untouched elements by reference), so the canvas redraws only what changed.
 */
export function createSceneItems(): (
  scene: Scene,
  output: OutputSize,
  avatarPicture: AvatarPicture,
  textPicture?: TextPicture,
) => CanvasItem[] {
  const cache = new WeakMap<SceneElement, { output: OutputSize; item: CanvasItem }>();
  return (scene, output, avatarPicture, textPicture = NO_TEXT) =>
    stackingOrder(scene.elements)
      .filter(isVisual)
      .map((element) => {
        const known = cache.get(element);
        const fresh = elementToItem(element, output, avatarPicture, textPicture);
        if (known && known.output === output && known.item.src === fresh.src) return known.item;
        cache.set(element, { output, item: fresh });
        return fresh;
      });
}

export function elementToItem(
  element: SceneElement,
  output: OutputSize,
  avatarPicture: AvatarPicture,
  textPicture: TextPicture = NO_TEXT,
): CanvasItem {
  const box = elementBox(element);
  const kind = element.type === 'avatar' ? 'avatar' : element.type === 'video' ? 'video' : 'image';
  let src: string | null = element.url || null;
  if (kind === 'avatar') src = avatarPicture(element.avatarId, element.url) ?? (element.url || null);
  // Text is drawn as the same picture the preview and the service get (the one rasteriser).
  if (element.type === 'text') src = textPicture(element);
  // A talking-avatar image may be a plain colour; the canvas draws it as a filled box.
  if (src && src.startsWith('#')) src = null;
  return {
    id: element.id,
    kind,
    src,
    label: element.name ?? (element.text ? firstLine(element.text) : (element.avatarId ?? element.type)),
    ...(element.type === 'text' ? { text: true } : {}),
    locked: Boolean(element.locked),
    x: box.x,
    y: box.y,
    width: box.width,
    height: box.height,
    maxWidth: output.width,
    maxHeight: output.height,
    fill: kind === 'image' && element.url.startsWith('#') ? element.url : undefined,
  };
}
