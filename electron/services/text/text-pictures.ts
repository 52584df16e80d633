import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pictureSize, textElementsOf, withTextAsImages } from '../../common/composition/text-ops';
import { BUNDLED_FONTS, fontFileOf, type TextStyle } from '../../common/composition/text-style';
import type { Project } from '../../common/composition/document';
import { CatalogueRasteriser } from '../../common/text/catalogue-rasteriser';
import { TextStyleError } from '../../common/text/text-rasteriser';
import { StudioError } from '../host/errors';
import { FontFiles } from './font-files';
import type { SystemFonts } from './system-fonts';

/**
 * Text elements drawn by the host: for the local preview (the compositor overlays the picture) and at
 * submit (the picture is uploaded like a chosen file). Pictures are kept by a fingerprint of what they
 * show, so drawing the same text again costs a file check.
 */
export interface TextPicturesDeps {
  /** Where the pictures are written. */
  dir: string;
  /** The bundled fonts folder (resources/fonts). */
  fontsDir: string;
  /** Hands out the file: reference the page and the uploader may use for a written picture. */
  grant: (path: string) => string;
  /** This computer's fonts (scanned on first use); without it only the studio's fonts draw. */
  systemFonts?: SystemFonts;
}

export interface HostTextPicture {
  url: string;
  path: string;
  width: number;
  height: number;
}

export class TextPictures {
  readonly rasteriser: CatalogueRasteriser;
  private readonly fonts: FontFiles;

  constructor(private readonly deps: TextPicturesDeps) {
    this.fonts = new FontFiles(deps.fontsDir, deps.systemFonts);
    const system = deps.systemFonts;
    this.rasteriser = new CatalogueRasteriser(
      { wasm: () => readFile(resvgWasmPath()), fontFile: (file) => this.fonts.read(file) },
      async () => (system ? (await system.list()).faces : []),
    );
  }

  /** A font file's bytes as TrueType (for the page's rasteriser). */
  async font(file: string): Promise<Buffer> {
    const bytes = await this.fonts.read(file);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The picture of a style at `width` × `height` pixels; an empty text or unknown font is a clear 'invalid-text' error. */
  async picture(style: TextStyle, size: { width: number; height: number }): Promise<HostTextPicture> {
    const key = createHash('sha256')
      .update(JSON.stringify({ style, width: size.width, height: size.height }))
      .digest('hex')
      .slice(0, 32);
    const path = join(this.deps.dir, `text-${key}.png`);
    let width = Math.max(1, Math.round(size.width));
    let height = Math.max(1, Math.round(size.height));
    if (!existsSync(path)) {
      let drawn;
      try {
        drawn = await this.rasteriser.rasterise(style, size);
      } catch (error) {
        if (error instanceof TextStyleError) throw new StudioError(error.message, 'invalid-text');
        throw error;
      }
      ({ width, height } = drawn);
      await mkdir(this.deps.dir, { recursive: true });
      // Its own part file: two rows drawing the same text at once must not rename each other's away.
      const part = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.part`;
      await writeFile(part, drawn.png);
      await rename(part, path);
    }
    return { url: this.deps.grant(path), path, width, height };
  }

  /**
   * Makes the project's fonts known before it is checked: this computer's catalogue when a text names
   * a family the studio does not ship, and the fingerprint of each system face the project recorded (so
   * validation can say when this computer's file differs from the one the project was made with).
   */
  async knowFontsOf(project: Project): Promise<void> {
    for (const element of textElementsOf(project)) if (element.text) await this.rasteriser.knowFontsOf(element.text);
    for (const record of project.fonts ?? []) {
      if (!record.system) continue;
      await this.rasteriser.knowFontsOf({ fontFamily: record.family });
      const face = fontFileOf(record.family, record.weight, record.italic ?? false);
      if (face?.system) await this.fonts.read(face.file);
    }
  }

  /** The project with every text element replaced by an image element of its picture (the compositor's view). */
  async flatten(project: Project): Promise<Project> {
    const texts = textElementsOf(project);
    if (texts.length === 0) return project;
    const pictures = new Map<string, string>();
    for (const element of texts) {
      if (!element.text) continue;
      try {
        pictures.set(element.id, (await this.picture(element.text, pictureSize(element))).url);
      } catch (error) {
        // The preview leaves out a text it cannot draw; validation names the element and the reason.
        if (!(error instanceof StudioError && error.code === 'invalid-text')) throw error;
      }
    }
    return withTextAsImages(project, pictures);
  }
}

/** resvg's WebAssembly file, wherever the package is installed. */
export function resvgWasmPath(): string {
  return createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm');
}

/**
 * The fonts shipped with the studio: resources/fonts of the installation, found by walking up from
 * this module (the source tree, or the built bundle in out/).
 */
export function bundledFontsDir(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'resources', 'fonts');
    if (existsSync(join(candidate, BUNDLED_FONTS[0].file))) return candidate;
    if (dirname(dir) === dir) throw new Error(`The studio's fonts (resources/fonts) were not found above ${from}`);
  }
}
