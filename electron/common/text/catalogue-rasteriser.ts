import { FONT_FAMILIES, useSystemFonts, type SystemFontFace, type TextStyle } from '../composition/text-style';
import { TextRasteriser, type RasterisedText, type RasteriserSources } from './text-rasteriser';
import type { TextLayout } from './text-layout';

/**
 * The one rasteriser, reading this computer's font catalogue the first time a style names a family the
 * studio does not ship (not before: the scan walks the font folders). The page asks the host for the
 * catalogue over the bridge; the host and CLI read it directly.
 */
export class CatalogueRasteriser extends TextRasteriser {
  private catalogue: Promise<void> | null = null;

  constructor(
    sources: RasteriserSources,
    private readonly systemFonts: () => Promise<readonly SystemFontFace[]>,
  ) {
    super(sources);
  }

  /** Reads the catalogue once when `style` needs it (a later call after a failed read tries again). */
  async knowFontsOf(style: Pick<TextStyle, 'fontFamily'>): Promise<void> {
    if (FONT_FAMILIES.includes(style.fontFamily)) return;
    this.catalogue ??= this.systemFonts().then(useSystemFonts, (error: unknown) => {
      this.catalogue = null;
      throw error;
    });
    await this.catalogue;
  }

  override async layout(style: TextStyle): Promise<TextLayout> {
    await this.knowFontsOf(style);
    return super.layout(style);
  }

  override async rasterise(style: TextStyle, pixels: { width: number; height: number }): Promise<RasterisedText> {
    await this.knowFontsOf(style);
    return super.rasterise(style, pixels);
  }
}
