import { noteSystemFontDigest, useSystemFonts, type SystemFontFace } from '@common/composition';
import { CatalogueRasteriser } from '@common/text/catalogue-rasteriser';
import { ref } from 'vue';
import { call } from '@/bridge';

/**
 * The page's copy of the one text rasteriser: the same resvg WebAssembly and the same font files the
 * host draws with (the host hands out the fonts; the .wasm is served with the page), so the canvas
 * shows the pixels the preview overlays and the service is sent.
 */
let shared: CatalogueRasteriser | null = null;

/** Moves each time the page learns about this computer's fonts (the catalogue, a file's fingerprint), so the Problems list is checked again. */
export const fontKnowledge = ref(0);
let catalogue: Promise<readonly SystemFontFace[]> | null = null;
/** True when the host's scan stopped at its file or time limit, so the catalogue may miss fonts. */
export const systemFontsCapped = ref(false);

/** This computer's fonts as the host lists them, asked for once (the host scans its font folders on the first ask). */
export function systemFontCatalogue(): Promise<readonly SystemFontFace[]> {
  catalogue ??= call('text.systemFonts').then(
    ({ faces, capped }) => {
      useSystemFonts(faces);
      systemFontsCapped.value = capped;
      fontKnowledge.value++;
      return faces;
    },
    (error: unknown) => {
      catalogue = null;
      throw error;
    },
  );
  return catalogue;
}

/** Reads the catalogue again (a font file was added): the page's rasteriser and Problems learn its faces. */
export async function refreshFontCatalogue(): Promise<readonly SystemFontFace[]> {
  catalogue = null;
  return systemFontCatalogue();
}

export function pageRasteriser(): CatalogueRasteriser {
  shared ??= new CatalogueRasteriser(
    {
      // Loaded when the first text is drawn, not with the editor (the .wasm is 2.5 MB).
      wasm: async () => fetch((await import('@resvg/resvg-wasm/index_bg.wasm?url')).default),
      fontFile: async (file) => {
        const { base64, sha256 } = await call('text.font', file);
        if (sha256) {
          noteSystemFontDigest(file, sha256);
          fontKnowledge.value++;
        }
        return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      },
    },
    systemFontCatalogue,
  );
  return shared;
}
