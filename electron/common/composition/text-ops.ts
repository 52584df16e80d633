import { DEFAULT_CAPTION_SETTINGS } from '../captions/caption-track';
import { bleedOf } from '../text/text-layout';
import type { ElementRole, MediaSize, Project, SceneElement } from './document';
import { addElement, findElement } from './element-ops';
import { elementBox } from './geometry';
import { CompositionError, round2, updateScene } from './project-ops';
import { fontRecordsOf, TEXT_PRESETS, type TextPresetId, type TextStyle } from './text-style';

/**
 * Text element operations. A text element's `mediaSize` is its natural size (the rasteriser's layout
 * of its style); its box is that size times the scale the user gave it. The natural size is measured
 * from the font, which the caller does (TextRasteriser.layout), so these stay pure.
 */

/** What the service is sent for a text element: a picture of `pictureSize(element)`, named by this reference until it is drawn. */
export const TEXT_REFERENCE_PREFIX = 'studio-text:';

export function textReference(elementId: string): string {
  return `${TEXT_REFERENCE_PREFIX}${elementId}`;
}

/** The whole pixels a text element's picture has: its box, rounded. */
export function pictureSize(element: Pick<SceneElement, 'width' | 'height'>): MediaSize {
  return { width: Math.max(1, Math.round(element.width)), height: Math.max(1, Math.round(element.height)) };
}

/** A preset's style with its sizes scaled for the frame (presets are drawn for 1920 pixels wide). */
export function presetStyle(project: Project, preset: TextPresetId): TextStyle {
  const style = TEXT_PRESETS[preset].style as TextStyle;
  const k = Math.min(project.output.width, project.output.height) / 1080;
  const scale = (v: number): number => round2(v * k);
  return {
    ...style,
    fontSize: scale(style.fontSize),
    wrapWidth: style.wrapWidth === null ? null : scale(style.wrapWidth),
    outline: style.outline && { ...style.outline, width: Math.max(0.5, scale(style.outline.width)) },
    box: style.box && { ...style.box, padding: scale(style.box.padding), radius: scale(style.box.radius) },
    shadow: style.shadow && {
      ...style.shadow,
      blur: scale(style.shadow.blur),
      offsetX: scale(style.shadow.offsetX),
      offsetY: scale(style.shadow.offsetY),
    },
  };
}

/** Adds a text element at its natural size: a title in the middle, a lower third in the frame's lower left. */
export function addTextElement(
  project: Project,
  sceneId: string,
  style: TextStyle,
  natural: MediaSize,
  options: { id?: string; place?: 'centre' | 'lower-left'; name?: string; role?: ElementRole } = {},
): Project {
  const { width: W, height: H } = project.output;
  const width = Math.min(natural.width, W);
  const height = round2((natural.height * width) / natural.width);
  const x = options.place === 'lower-left' ? Math.round(W * 0.06) : Math.round((W - width) / 2);
  const y = options.place === 'lower-left' ? Math.round(H * 0.94 - height) : Math.round((H - height) / 2);
  const next = addElement(project, sceneId, {
    id: options.id,
    type: 'text',
    url: '',
    x,
    y,
    width,
    height,
    mediaSize: natural,
    text: style,
    name: options.name ?? firstLine(style),
    ...(options.role ? { role: options.role } : {}),
  });
  return withFontRecords(next);
}

/**
 * A new style for a text element, measured at `natural`: the element keeps its scale, its top, and
 * the side its alignment holds still (left edge, centre or right edge), as text tools do.
 */
export function setTextStyle(
  project: Project,
  sceneId: string,
  elementId: string,
  style: TextStyle,
  natural: MediaSize,
): Project {
  const element = findElement(project, sceneId, elementId);
  if (element.type !== 'text' || !element.text)
    throw new CompositionError(`Element "${elementId}" is not a text element`);
  const box = elementBox(element);
  const scale = element.mediaSize ? box.width / element.mediaSize.width : 1;
  const width = round2(natural.width * scale);
  const height = round2(natural.height * scale);
  const x =
    style.align === 'left'
      ? box.x
      : style.align === 'center'
        ? box.x + (box.width - width) / 2
        : box.x + box.width - width;
  const next = updateScene(project, sceneId, (scene) => ({
    ...scene,
    elements: scene.elements.map((e) =>
      e.id === elementId
        ? {
            ...e,
            text: style,
            mediaSize: natural,
            x: round2(x),
            width,
            height,
            name: namedAfter(e.name, element.text!) ? firstLine(style) : e.name,
          }
        : e,
    ),
  }));
  return withFontRecords(next);
}

/**
 * The wrap width that gives a text element a box `boxWidth` wide at the scale it has now. Typing a
 * width for text means "lines this long": the letters keep their size and the lines break again, where
 * scaling the picture would squash them. The room for the box padding and effects is taken off first,
 * as the layout adds it back around the lines.
 */
export function wrapWidthForBox(element: SceneElement, boxWidth: number): number {
  if (!element.text) throw new CompositionError(`Element "${element.id}" is not a text element`);
  const scale = element.mediaSize ? element.width / element.mediaSize.width : 1;
  const inset = bleedOf(element.text) + (element.text.box?.padding ?? 0);
  return round2(Math.min(8000, Math.max(8, boxWidth / scale - inset * 2)));
}

/** The project with `fonts` listing the font files its text and captions use (absent when it has neither). */
export function withFontRecords(project: Project): Project {
  const captionStyle = (project.captions ?? DEFAULT_CAPTION_SETTINGS).style;
  const styles = project.scenes.flatMap((s) => [
    ...s.elements.flatMap((e) => (e.type === 'text' && e.text ? [e.text] : [])),
    ...(s.captions ?? []).map((cue) => ({ ...captionStyle, content: cue.text })),
  ]);
  const fonts = fontRecordsOf(styles, project.fonts);
  if (JSON.stringify(fonts) === JSON.stringify(project.fonts ?? [])) return project;
  if (fonts.length === 0) {
    const { fonts: _fonts, ...rest } = project;
    return rest;
  }
  return { ...project, fonts };
}

const NAME_CHARS = 40;

/** A text's first line as a label (cut at 40 characters); what a text is named when it is added. */
export function firstLine(style: TextStyle): string {
  const line = style.content.split(/\r?\n/)[0].trim();
  return line.length > NAME_CHARS ? `${line.slice(0, NAME_CHARS - 1)}…` : line || 'Text';
}

/**
 * Whether an element's name was made from its text, so the timeline's and the canvas's labels should
 * follow an edit: the studio's own cut of the first line, or a cut at the same length made elsewhere
 * (the starters' names are the line's first 40 characters, with no ellipsis). A name the user typed
 * stays theirs; a text with no name is labelled by its first line where it is shown.
 */
function namedAfter(name: string | undefined, style: TextStyle): boolean {
  if (name === undefined) return false;
  if (name === firstLine(style)) return true;
  const stem = name.endsWith('…') ? name.slice(0, -1) : name;
  return stem.length >= NAME_CHARS - 1 && style.content.trim().startsWith(stem);
}

/**
 * The project as the compositor sees it: each text element an image element showing `pictures`'s
 * file for it (the rasterised PNG, drawn at the element's box). A text element with no picture is left
 * out, so nothing stands in for text that could not be drawn.
 */
export function withTextAsImages(project: Project, pictures: ReadonlyMap<string, string>): Project {
  return {
    ...project,
    scenes: project.scenes.map((scene) => ({
      ...scene,
      elements: scene.elements.flatMap((e): SceneElement[] => {
        if (e.type !== 'text') return [e];
        const url = pictures.get(e.id);
        if (!url) return [];
        const { text: _text, ...rest } = e;
        return [{ ...rest, type: 'image', url, mediaSize: pictureSize(e) }];
      }),
    })),
  };
}

/** Every text element of a project with its scene, in scene order. */
export function textElementsOf(project: Project): SceneElement[] {
  return project.scenes.flatMap((s) => s.elements.filter((e) => e.type === 'text'));
}
