import { MAX_OWN_FONT_BYTES } from '@common/bridge/text';
import type { SystemFontFace } from '@common/composition';
import { call } from '@/bridge';
import { fontsAdded } from './font-options';
import { refreshFontCatalogue } from './page-rasteriser';

/** What the font file pickers accept (the host checks the bytes again: a renamed PNG is still refused). */
export const FONT_FILE_ACCEPT = '.ttf,.otf,.woff2,font/ttf,font/otf,font/woff2';

function base64Of(bytes: Uint8Array): string {
  let text = '';
  // In slices: one String.fromCharCode call with a whole font's bytes overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * Font files the user picked or dropped, handed to the host one by one (their bytes: the page never
 * names a path). Each added face is drawable at once, here and by the host; each refused file is
 * reported by the host's reason, which names it.
 */
export async function addFontFiles(files: Iterable<File>): Promise<{ faces: SystemFontFace[]; errors: string[] }> {
  const faces: SystemFontFace[] = [];
  const errors: string[] = [];
  for (const file of files) {
    if (file.size > MAX_OWN_FONT_BYTES) {
      errors.push(
        `"${file.name}" is larger than ${MAX_OWN_FONT_BYTES / 1_000_000} MB, the most a font file added may be: it was not added.`,
      );
      continue;
    }
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      faces.push(await call('text.addFont', { name: file.name, base64: base64Of(bytes) }));
    } catch (error) {
      errors.push(error instanceof Error ? error.message : `"${file.name}": ${String(error)}`);
    }
  }
  if (faces.length > 0) {
    await refreshFontCatalogue();
    fontsAdded();
  }
  return { faces, errors };
}
