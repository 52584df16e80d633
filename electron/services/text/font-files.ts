import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { decompress } from 'wawoff2';
import { SCRIPT_FONT_FILE } from '../../common/text/script-fonts';

/**
 * Font files by name, as TrueType: the bundled ones from resources/fonts, and the script fonts
 * (Arabic, CJK, Korean) from their npm packages, unpacked from WOFF2 on first use and kept in memory (a CJK
 * file is ~50 kB packed, ~150 kB unpacked, and takes a few milliseconds).
 */
export class FontFiles {
  private readonly unpacked = new Map<string, Promise<Uint8Array>>();

  constructor(private readonly bundledDir: string) {}

  read(name: string): Promise<Uint8Array> {
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
  const pkg = name.startsWith('noto-sans-arabic') ? '@fontsource/noto-sans-arabic' : name.startsWith('noto-sans-kr') ? '@fontsource-variable/noto-sans-kr' : '@fontsource-variable/noto-sans-sc';
  return createRequire(import.meta.url).resolve(`${pkg}/files/${name}`);
}
