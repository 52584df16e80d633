import type { TextStyle } from '../composition/text-style';
import type { TextLayout } from './text-layout';

/**
 * A text element as SVG, drawn at `pixels` (the element's box, rounded) from its natural-size layout.
 * Only features resvg draws the same everywhere: one font by family name, fill, stroke under the fill
 * (paint-order), a drop shadow filter and a rounded rectangle.
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
    parts.push(`<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" rx="${style.box.radius}" fill="${style.box.colour}" fill-opacity="${style.box.opacity}"/>`);
  }
  const anchor = style.align === 'left' ? 'start' : style.align === 'center' ? 'middle' : 'end';
  const outline = style.outline ? ` stroke="${style.outline.colour}" stroke-width="${style.outline.width}" stroke-linejoin="round" paint-order="stroke"` : '';
  const shadow = style.shadow ? ' filter="url(#shadow)"' : '';
  parts.push(
    `<text xml:space="preserve" font-family="${escapeXml(style.fontFamily)}" font-size="${style.fontSize}" font-weight="${style.fontWeight}" fill="${style.colour}" text-anchor="${anchor}"${outline}${shadow}>`,
  );
  for (const line of layout.lines) {
    if (line.text.trim() === '') continue;
    parts.push(`<tspan x="${line.x}" y="${line.baseline}">${escapeXml(line.text)}</tspan>`);
  }
  parts.push('</text></svg>');
  return parts.join('');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
