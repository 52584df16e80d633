import { pictureSize, textElementsOf, textReference, type Project } from '@common/composition';
import { call } from '@/bridge';

/**
 * Puts the host's picture of each text element where the request body names it (textReference), as
 * a local file the upload step then links like any other. The host draws with the same rasteriser
 * and fonts as the canvas; an empty text or an unknown font fails here with its reason, before any
 * upload or paid request.
 */
export async function withTextPictures(body: unknown, project: Project): Promise<unknown> {
  const json = JSON.stringify(body);
  const pictures = new Map<string, string>();
  for (const element of textElementsOf(project)) {
    const reference = textReference(element.id);
    if (!element.text || !json.includes(JSON.stringify(reference))) continue;
    const size = pictureSize(element);
    const picture = await call('text.picture', { style: element.text, width: size.width, height: size.height });
    pictures.set(reference, picture.url);
  }
  return pictures.size === 0 ? body : replaceStrings(body, pictures);
}

export function replaceStrings(value: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceStrings(v, map));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStrings(v, map)]));
  return value;
}
