import { z } from 'zod';
import { HexColour } from './colour';
import { MediaSize, OutputSize, Scene, type ElementRole, type Project, type SceneElement } from './document';
import { elementBox } from './geometry';
import { freshIds, round2, updateScene } from './project-ops';
import { setTextStyle, withFontRecords } from './text-ops';
import { FONT_FAMILIES, fontFileOf, type TextStyle } from './text-style';

/**
 * A brand kit: the colours, fonts, logo and bookend scenes a company puts on every video. Applying
 * it is a pure change of the project document (one undo step in the editor): text takes the brand's
 * fonts and colours by the part it plays, the logo sits in the chosen corner of every scene, and the
 * intro and outro scenes open and close the video. Applying it again replaces what it added before.
 */

export const BrandCorner = z.enum(['top-left', 'top-right', 'bottom-left', 'bottom-right']);
export type BrandCorner = z.infer<typeof BrandCorner>;

const Family = z
  .string()
  .refine((f) => FONT_FAMILIES.includes(f), { message: `a font the studio ships (${FONT_FAMILIES.join(', ')})` });

export const BrandLogo = z.object({
  /** A local picture the user chose (a granted file: reference). */
  url: z.string().min(1).max(4000),
  name: z.string().max(200),
  mediaSize: MediaSize,
  corner: BrandCorner,
  /** The logo's width as a share of the frame's shorter side, in percent. */
  sizePercent: z.number().min(4).max(40),
});
export type BrandLogo = z.infer<typeof BrandLogo>;

/** A scene kept as the kit's intro or outro, with the frame it was made for (it is fitted to others). */
export const BrandScene = z.object({ name: z.string().max(200), output: OutputSize, scene: Scene });
export type BrandScene = z.infer<typeof BrandScene>;

export const BrandKit = z.object({
  colours: z.object({ primary: HexColour, secondary: HexColour, text: HexColour, background: HexColour }),
  fonts: z.object({ heading: Family, body: Family }),
  logo: BrandLogo.nullable(),
  intro: BrandScene.nullable(),
  outro: BrandScene.nullable(),
  /** New projects (blank or from a template) start with the kit applied. */
  applyToNewProjects: z.boolean(),
});
export type BrandKit = z.infer<typeof BrandKit>;

export const DEFAULT_BRAND_KIT: BrandKit = {
  colours: { primary: '#1d4ed8', secondary: '#0f172a', text: '#ffffff', background: '#0b1220' },
  fonts: { heading: 'Source Sans 3', body: 'Source Sans 3' },
  logo: null,
  intro: null,
  outro: null,
  applyToNewProjects: false,
};

export type TextRole = Extract<ElementRole, 'title' | 'lower-third' | 'body'>;

/**
 * The part a text element plays: its recorded role, else read from how it looks (a boxed text in the
 * lower part of the frame is a lower third, large text a title, the rest body text).
 */
export function textRoleOf(element: SceneElement, output: OutputSize): TextRole {
  if (element.role === 'title' || element.role === 'lower-third' || element.role === 'body') return element.role;
  const style = element.text;
  if (!style) return 'body';
  const box = elementBox(element);
  const scale = element.mediaSize ? box.width / element.mediaSize.width : 1;
  if (style.box && box.y + box.height / 2 > output.height * 0.6) return 'lower-third';
  return style.fontSize * scale >= Math.min(output.width, output.height) * 0.06 ? 'title' : 'body';
}

/** A text style in the brand's look for its role; sizes, layout and effects are the design's and stay. */
export function brandedTextStyle(style: TextStyle, role: TextRole, kit: BrandKit): TextStyle {
  const { primary, secondary, text } = kit.colours;
  const fontFamily = role === 'title' ? kit.fonts.heading : kit.fonts.body;
  const fontWeight = fontFileOf(fontFamily, style.fontWeight) ? style.fontWeight : 400;
  const boxColour = role === 'body' ? secondary : primary;
  const box = style.box && { ...style.box, colour: boxColour };
  return { ...style, fontFamily, fontWeight, box, colour: box ? readableOn(boxColour, kit) : text };
}

/** Of the brand's text and background colours, the one that reads better on `ground` (WCAG contrast); black or white when neither reads. */
export function readableOn(ground: string, kit: BrandKit): string {
  const candidates = [kit.colours.text, kit.colours.background];
  const best = candidates.reduce((a, b) => (contrast(b, ground) > contrast(a, ground) ? b : a));
  if (contrast(best, ground) >= 3) return best;
  return contrast('#ffffff', ground) >= contrast('#000000', ground) ? '#ffffff' : '#000000';
}

export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(hex: string): number {
  const channel = (i: number): number => {
    const v = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** A text style's natural size in pixels, as the rasteriser lays it out. */
export type MeasureText = (style: TextStyle) => MediaSize;

/**
 * Every style applying the kit will ask the size of. Measuring needs the font (asynchronous), so a
 * caller measures these first and applies with `measuredBy` of the answers.
 */
export function stylesToMeasure(project: Project, kit: BrandKit): TextStyle[] {
  const seen = new Map<string, TextStyle>();
  applyBrandKit(project, kit, (style) => {
    seen.set(JSON.stringify(style), style);
    return { width: 1, height: 1 };
  });
  return [...seen.values()];
}

/** A measure answering from sizes measured before (stylesToMeasure's order); an unmeasured style is a bug and throws. */
export function measuredBy(styles: readonly TextStyle[], sizes: readonly MediaSize[]): MeasureText {
  const known = new Map(styles.map((s, i) => [JSON.stringify(s), sizes[i]]));
  return (style) => {
    const size = known.get(JSON.stringify(style));
    if (!size) throw new Error('A text style was not measured before the brand kit was applied');
    return size;
  };
}

/**
 * The project in the brand's look. `measure` gives a restyled text its new natural size (fonts differ
 * in width); the element keeps its scale and the side its alignment holds, as any restyle does.
 */
export function applyBrandKit(project: Project, kit: BrandKit, measure: MeasureText): Project {
  // What an earlier application added goes first, so this one hands out the same ids again.
  const kept = project.scenes.filter((s) => !s.brand);
  const scenes = (kept.length ? kept : project.scenes).map((s) => ({
    ...s,
    elements: s.elements.filter((e) => e.role !== 'logo'),
  }));
  let next: Project = { ...project, background: kit.colours.background, scenes };
  next = bookend(next, kit, measure);
  for (const scene of next.scenes) {
    for (const e of scene.elements) {
      if (e.type !== 'text' || !e.text) continue;
      const role = textRoleOf(e, next.output);
      const style = brandedTextStyle(e.text, role, kit);
      if (JSON.stringify(style) !== JSON.stringify(e.text)) {
        next = setTextStyle(next, scene.id, e.id, style, measure(style));
        if (insideFrame(e, next.output)) next = keptInFrame(next, scene.id, e.id);
      }
      // The role read from the look is kept as data: applied again after a resize or in another format,
      // the kit restyles the element the same way instead of guessing again from its new look.
      if (e.role !== role) next = withRole(next, scene.id, e.id, role);
    }
  }
  next = withFontRecords(placeLogo(next, kit.logo));
  // Applied again, the kit rebuilds what it already made: the input then stands (no undo step, not dirty).
  return JSON.stringify(next) === JSON.stringify(project) ? project : next;
}

function insideFrame(e: SceneElement, output: OutputSize): boolean {
  return e.x >= 0 && e.y >= 0 && e.x + e.width <= output.width + 0.5 && e.y + e.height <= output.height + 0.5;
}

/**
 * A text the user placed inside the frame stays inside it when the brand's font is wider: it is made
 * smaller (the same aspect, so nothing is squeezed) until it fits, then moved in. Without this the
 * "Product explainer" title ran 75 px past the frame in the kit's heading font.
 */
function keptInFrame(project: Project, sceneId: string, id: string): Project {
  const { width: W, height: H } = project.output;
  return updateScene(project, sceneId, (scene) => ({
    ...scene,
    elements: scene.elements.map((e) => {
      if (e.id !== id || insideFrame(e, project.output)) return e;
      const k = Math.min(1, W / e.width, H / e.height);
      const width = round2(e.width * k);
      const height = round2(e.height * k);
      const x = round2(Math.min(Math.max(0, e.x), W - width));
      const y = round2(Math.min(Math.max(0, e.y), H - height));
      return { ...e, x, y, width, height };
    }),
  }));
}

function withRole(project: Project, sceneId: string, id: string, role: TextRole): Project {
  return updateScene(project, sceneId, (scene) => ({
    ...scene,
    elements: scene.elements.map((e) => (e.id === id ? { ...e, role } : e)),
  }));
}

/** The kit's intro first and outro last, fitted to the project's frame, with ids of their own. */
function bookend(project: Project, kit: BrandKit, measure: MeasureText): Project {
  let next = project;
  for (const [which, kept] of [
    ['intro', kit.intro],
    ['outro', kit.outro],
  ] as const) {
    if (!kept) continue;
    const [sceneId] = freshIds(next, 'scene', 1);
    const ids = freshIds(next, 'el', kept.scene.elements.length);
    const scene: Scene = {
      ...fitScene(kept, next.output, ids, measure),
      id: sceneId,
      brand: which,
      name: kept.name || kept.scene.name || (which === 'intro' ? 'Intro' : 'Outro'),
    };
    next = { ...next, scenes: which === 'intro' ? [scene, ...next.scenes] : [...next.scenes, scene] };
  }
  return next;
}

/** A kept scene scaled uniformly into another frame and centred (nothing is stretched or cut). */
function fitScene(kept: BrandScene, output: OutputSize, ids: string[], measure: MeasureText): Scene {
  const k = Math.min(output.width / kept.output.width, output.height / kept.output.height);
  const dx = (output.width - kept.output.width * k) / 2;
  const dy = (output.height - kept.output.height * k) / 2;
  const elements = kept.scene.elements.map((e, i): SceneElement => {
    const placed = {
      ...e,
      id: ids[i],
      x: round2(e.x * k + dx),
      y: round2(e.y * k + dy),
      width: round2(e.width * k),
      height: round2(e.height * k),
    };
    // A text keeps its natural size as measured now, so the recorded scale holds on this machine.
    return e.type === 'text' && e.text ? { ...placed, mediaSize: measure(e.text) } : placed;
  });
  return { ...kept.scene, elements };
}

/** The logo in its corner of every scene, above everything else; a logo placed before is replaced. */
function placeLogo(project: Project, logo: BrandLogo | null): Project {
  const scenes = project.scenes.map((s) => ({ ...s, elements: s.elements.filter((e) => e.role !== 'logo') }));
  let next: Project = { ...project, scenes };
  if (!logo) return next;
  const { width: W, height: H } = project.output;
  const width = round2((Math.min(W, H) * logo.sizePercent) / 100);
  const height = round2((width * logo.mediaSize.height) / logo.mediaSize.width);
  const margin = Math.round(Math.min(W, H) * 0.04);
  const x = logo.corner.endsWith('left') ? margin : round2(W - margin - width);
  const y = logo.corner.startsWith('top') ? margin : round2(H - margin - height);
  const ids = freshIds(next, 'el', scenes.length);
  next = {
    ...next,
    scenes: scenes.map((s, i) => {
      const layer = Math.max(0, ...s.elements.map((e) => e.layer + 1));
      const element: SceneElement = {
        id: ids[i],
        type: 'image',
        url: logo.url,
        name: 'Brand logo',
        role: 'logo',
        x,
        y,
        width,
        height,
        mediaSize: logo.mediaSize,
        layer,
        locked: true,
      };
      return { ...s, elements: [...s.elements, element] };
    }),
  };
  return next;
}
