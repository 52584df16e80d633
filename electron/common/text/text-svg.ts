import type { FontWeight, TextStyle } from '../composition/text-style';
import { SCRIPT_FAMILIES } from './script-fonts';
import type { TextLayout } from './text-layout';

/**
 * A text element as SVG, drawn at `pixels` (the element's box, rounded) from its natural-size layout.
 * Only features resvg draws the same everywhere: one font family per text (a line, or each run of a line that mixes fonts), fill, stroke under the fill
 * (paint-order), a drop shadow filter on the group of lines and a rounded rectangle.
 */
export function textSvg(style: TextStyle, layout: TextLayout, pixels: { width: number; height: number }): string {
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels.width}" height="${pixels.height}" viewBox="0 0 ${layout.width} ${layout.height}" preserveAspectRatio="none">`,
  ];
  if (style.shadow) {
    const s = style.shadow;
    parts.push(
      `<defs><filter id="shadow" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="${s.offsetX}" dy="${s.offsetY}" stdDeviation="${s.blur / 2}" flood-color="${s.colour}" flood-opacity="${s.opacity}"/></filter></defs>`,
    );
  }
  if (layout.box && style.box) {
    const b = layout.box;
    parts.push(
      `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" rx="${style.box.radius}" fill="${style.box.colour}" fill-opacity="${style.box.opacity}"/>`,
    );
  }
  const outline = style.outline
    ? ` stroke="${style.outline.colour}" stroke-width="${style.outline.width}" stroke-linejoin="round" paint-order="stroke"`
    : '';
  const shadow = style.shadow ? ' filter="url(#shadow)"' : '';
  parts.push(
    `<g font-size="${style.fontSize}" font-weight="${style.fontWeight}" fill="${style.colour}"${outline}${shadow}>`,
  );
  for (const line of layout.lines) {
    if (line.text.trim() === '') continue;
    if (line.runs) {
      for (const run of line.runs) {
        const family = run.face ? SCRIPT_FAMILIES[run.face] : style.fontFamily;
        const slant = style.italic && !run.face ? ' font-style="italic"' : '';
        parts.push(
          `<text xml:space="preserve" x="${run.x}" y="${line.baseline}" text-anchor="start" font-family="${escapeXml(family)}"${slant}>${escapeXml(run.text)}</text>`,
        );
      }
      continue;
    }
    const family = line.face ? SCRIPT_FAMILIES[line.face] : style.fontFamily;
    // The script fonts have no italic: their lines stay upright rather than be slanted by hand.
    const slant = style.italic && !line.face ? ' font-style="italic"' : '';
    const at = `x="${line.x}" y="${line.baseline}" text-anchor="${line.anchor}" font-family="${escapeXml(family)}"${slant}`;
    parts.push(`<text xml:space="preserve" ${at}>${escapeXml(line.text)}</text>`);
    // Noto Sans SC and KR come as variable fonts that resvg draws at their lightest master: a stroke
    // of the text's own colour brings them to the chosen weight. Static bold files would be real bold, but
    // @fontsource/noto-sans-sc and -kr ship every weight as one package (73 MB and 50 MB packed), too much for npm ci.
    if (line.face === 'cjk' || line.face === 'korean') {
      const stroke = round(style.fontSize * CJK_WEIGHT_STROKE[style.fontWeight]);
      parts.push(
        `<text xml:space="preserve" ${at} stroke="${style.colour}" stroke-width="${stroke}" stroke-linejoin="round" paint-order="normal">${escapeXml(line.text)}</text>`,
      );
    }
  }
  parts.push('</g></svg>');
  return parts.join('');
}

/** Stroke width, in ems, that brings Noto Sans SC's and KR's thin masters to regular and to bold. */
const CJK_WEIGHT_STROKE: Record<FontWeight, number> = { 400: 0.045, 700: 0.085 };

const round = (v: number): number => Math.round(v * 100) / 100;

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
