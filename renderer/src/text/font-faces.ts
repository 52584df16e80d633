import type { FontWeight, TextStyle } from '@common/composition';

/** The faces of a family a text or caption can be drawn in: weight and slant picked as one, as in a word processor's style list. */
export const FACE_OPTIONS = [
  { label: 'Regular', value: '400' },
  { label: 'Italic', value: '400-italic' },
  { label: 'Bold', value: '700' },
  { label: 'Bold italic', value: '700-italic' },
];

export function faceOf(style: TextStyle): string {
  return `${style.fontWeight}${style.italic ? '-italic' : ''}`;
}

export function facePatch(face: string): Pick<TextStyle, 'fontWeight' | 'italic'> {
  const weight: FontWeight = face.startsWith('700') ? 700 : 400;
  return { fontWeight: weight, italic: face.endsWith('-italic') };
}
