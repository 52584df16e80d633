import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bridgeCalls } from '@common/bridge';
import { DEFAULT_TEXT_STYLE, type TextStyle } from '@common/composition';
import { SystemFonts } from '../../../electron/services/text/system-fonts';
import { createTextDomain } from '../../../electron/services/text/text-domain';
import { fontKindOf, ownFontsDir } from '../../../electron/services/text/own-fonts';
import { TextPictures } from '../../../electron/services/text/text-pictures';
import { FONTS_DIR, inkBox } from './text-node';

// A family the studio does not ship and the catalogue below does not scan: only adding it makes it drawable.
const DEJAVU_SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const ARABIC_BOLD = 'node_modules/@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-700-normal.woff2';

async function host(...installed: string[]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'own-fonts-'));
  const fonts = new SystemFonts({ dirs: installed });
  fonts.include(ownFontsDir(dataDir));
  const pictures = new TextPictures({
    dir: join(dataDir, 'media', 'text'),
    fontsDir: FONTS_DIR,
    grant: (p) => p,
    systemFonts: fonts,
  });
  const domain = createTextDomain(pictures, fonts, dataDir);
  const add = async (name: string, bytes: Uint8Array) => {
    // As the page sends it: the bridge's checks first, then the handler.
    const [arg] = bridgeCalls['text.addFont'].args.parse([{ name, base64: Buffer.from(bytes).toString('base64') }]);
    return domain.handlers['text.addFont'](arg);
  };
  return { dataDir, fonts, pictures, add };
}

const style: TextStyle = { ...DEFAULT_TEXT_STYLE, shadow: null, content: 'Hamburgefonts', fontWeight: 400 };

describe("the user's own font files", () => {
  it('refuses a file that is not a font, naming it, and keeps nothing of it', async () => {
    const { dataDir, add } = await host();
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await expect(add('logo.png', png)).rejects.toThrow(
      '"logo.png" is not a font file (TTF, OTF or WOFF2): it was not added.',
    );
    // A TrueType header with nothing behind it: named, with what is wrong.
    const cut = (await readFile(join(FONTS_DIR, 'SourceSans3-Regular.ttf'))).subarray(0, 600);
    await expect(add('Brand-Cut.ttf', cut)).rejects.toThrow(
      /^"Brand-Cut\.ttf" cannot be used \(.+\): it was not added\.$/,
    );
    const kept = existsSync(ownFontsDir(dataDir)) ? await readdir(ownFontsDir(dataDir)) : [];
    expect(kept).toEqual([]);
  });

  it('adds a TTF that the one rasteriser then draws, unlike the studio font it stood in for', async () => {
    const { pictures, add } = await host();
    const dejavu = { ...style, fontFamily: 'DejaVu Sans' };
    // Not there before it is added: the studio says so.
    await expect(pictures.rasteriser.layout(dejavu)).rejects.toThrow(
      /"DejaVu Sans" \(regular\) is not one this studio has/,
    );
    const face = await add('DejaVuSans.ttf', await readFile(DEJAVU_SANS));
    expect(face).toMatchObject({
      family: 'DejaVu Sans',
      weight: 400,
      italic: false,
      file: 'DejaVuSans.ttf',
      own: true,
    });
    const layout = await pictures.rasteriser.layout(dejavu);
    const drawn = await pictures.rasteriser.rasterise(dejavu, layout);
    const ink = inkBox(drawn.pixels, drawn.width, drawn.height)!;
    expect(ink.right - ink.left).toBeGreaterThan(layout.width * 0.8);
    const studio = await pictures.rasteriser.rasterise({ ...style, fontFamily: 'Source Sans 3' }, layout);
    expect(Buffer.from(drawn.pixels).equals(Buffer.from(studio.pixels))).toBe(false);
    // The host's picture for a result is drawn by the same engine with the same file.
    const picture = await pictures.picture(dejavu, { width: layout.width, height: layout.height });
    expect(existsSync(picture.path)).toBe(true);
  });

  it('unpacks a WOFF2 to a font file kept in the data folder, listed again after a restart', async () => {
    const { dataDir, add } = await host();
    const woff2 = await readFile(ARABIC_BOLD);
    expect(fontKindOf(woff2)).toBe('woff2');
    const face = await add('Brand Bold.woff2', woff2);
    expect(face).toMatchObject({ family: 'Noto Sans Arabic', weight: 700, file: 'Brand Bold.ttf', own: true });
    const [kept] = await readdir(ownFontsDir(dataDir));
    expect(fontKindOf(await readFile(join(ownFontsDir(dataDir), kept)))).toBe('ttf');
    // A new process: the data folder's fonts are walked with the computer's.
    const again = new SystemFonts({ dirs: [] });
    again.include(ownFontsDir(dataDir));
    expect((await again.list()).faces).toEqual([face]);
  });

  it("wins over the computer's own face of the same family, weight and slant", async () => {
    const { fonts, add } = await host('/usr/share/fonts/truetype/dejavu');
    const installed = (await fonts.list()).faces.filter((f) => f.family === 'DejaVu Sans' && f.weight === 400);
    expect(installed.every((f) => !f.own)).toBe(true);
    await add('DejaVuSans.ttf', await readFile(DEJAVU_SANS));
    const now = (await fonts.list()).faces.filter((f) => f.family === 'DejaVu Sans' && f.weight === 400 && !f.italic);
    expect(now.map((f) => f.own)).toEqual([true]);
  });
});
