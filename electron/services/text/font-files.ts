import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { decompress } from 'wawoff2';
import { noteSystemFontDigest, SYSTEM_FONT_PREFIX } from '../../common/composition/text-style';
import { SCRIPT_FONT_FILE } from '../../common/text/script-fonts';
import type { SystemFonts } from './system-fonts';

/**
 * Font files by name, as TrueType: the bundled ones from resources/fonts, and the script fonts
 * (Arabic, CJK, Korean) from their npm packages, and this computer's by catalogue id (system-fonts.ts), unpacked from WOFF2 on first use and kept in memory (a CJK
 * file is ~50 kB packed, ~150 kB unpacked, and takes a few milliseconds).
 */
export class FontFiles {
  private readonly unpacked = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly bundledDir: string,
    private readonly system?: SystemFonts,
  ) {}

  read(name: string): Promise<Uint8Array> {
    if (name.startsWith(SYSTEM_FONT_PREFIX)) {
      if (!this.system) return Promise.reject(new Error("This computer's fonts are not available here."));
      return this.system.read(name.slice(SYSTEM_FONT_PREFIX.length)).then((f) => {
        noteSystemFontDigest(name, f.sha256);
        return f.bytes;
      });
    }
    if (!SCRIPT_FONT_FILE.test(name)) return readFile(join(this.bundledDir, name)).then((b) => new Uint8Array(b));
    let bytes = this.unpacked.get(name);
    if (!bytes) {
      bytes = readFile(scriptFontPath(name)).then(async (packed) => (await decompress(packed)).slice());
      bytes.catch(() => this.unpacked.delete(name));
      this.unpacked.set(name, bytes);
    }
    return bytes;
  }
}

/** Where a script font's WOFF2 is installed (only names SCRIPT_FONT_FILE accepts reach here). */
export function scriptFontPath(name: string): string {
  const pkg = name.startsWith('noto-sans-arabic')
    ? '@fontsource/noto-sans-arabic'
    : name.startsWith('noto-sans-kr')
      ? '@fontsource-variable/noto-sans-kr'
      : '@fontsource-variable/noto-sans-sc';
  return createRequire(import.meta.url).resolve(`${pkg}/files/${name}`);
}
