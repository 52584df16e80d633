import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bridgeCalls } from '@common/bridge';
import { BUNDLED_FONTS, DEFAULT_TEXT_STYLE, type TextStyle } from '@common/composition';
import { CatalogueRasteriser } from '@common/text/catalogue-rasteriser';
import { FontFiles } from '../../../electron/services/text/font-files';
import { resvgWasmPath } from '../../../electron/services/text/text-pictures';
import { createHash } from 'node:crypto';
import { faceOf, platformFontDirs, SystemFonts } from '../../../electron/services/text/system-fonts';
import { FONTS_DIR, inkBox } from './text-node';

const DEBIAN_DEJAVU = '/usr/share/fonts/truetype/dejavu';

/** A font folder made of the studio's own files plus the broken ones users have lying about. */
async function fontFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'system-fonts-'));
  await mkdir(join(dir, 'nested', 'deeper'), { recursive: true });
  for (const font of BUNDLED_FONTS) await copyFile(join(FONTS_DIR, font.file), join(dir, font.file));
  // A real font cut short, a text file with a font's name, a collection, and a second copy of a face.
  const good = await readFile(join(FONTS_DIR, 'SourceSans3-Regular.ttf'));
  await writeFile(join(dir, 'nested', 'Truncated.ttf'), good.subarray(0, 600));
  await writeFile(join(dir, 'nested', 'deeper', 'notes.ttf'), 'these are not the glyphs you are looking for');
  await writeFile(join(dir, 'Family.ttc'), good);
  await copyFile(join(FONTS_DIR, 'DejaVuSerif.ttf'), join(dir, 'nested', 'DejaVuSerif-copy.ttf'));
  return dir;
}

describe("this computer's font catalogue", () => {
  it("reads family, weight and slant from the studio's own font files", async () => {
    for (const font of BUNDLED_FONTS) {
      expect(await faceOf(join(FONTS_DIR, font.file)), font.file).toEqual({
        family: font.family,
        weight: font.weight,
        italic: font.italic,
      });
    }
  });

  it("reads the fonts installed on this machine (Debian's DejaVu), leaving out weights and widths the studio cannot name", async () => {
    expect(existsSync(DEBIAN_DEJAVU), 'fonts-dejavu-core is installed').toBe(true);
    const scan = await new SystemFonts({ dirs: [DEBIAN_DEJAVU] }).list();
    const sans = scan.faces.filter((f) => f.family === 'DejaVu Sans').map((f) => [f.weight, f.italic, f.file]);
    expect(sans).toEqual([
      [400, false, 'DejaVuSans.ttf'],
      [400, true, 'DejaVuSans-Oblique.ttf'],
      [700, false, 'DejaVuSans-Bold.ttf'],
      [700, true, 'DejaVuSans-BoldOblique.ttf'],
    ]);
    expect(scan.skipped.find((s) => s.file.endsWith('DejaVuSans-ExtraLight.ttf'))?.reason).toMatch(
      /weight 200: the studio draws regular \(400\) and bold \(700\) only/,
    );
    expect(scan.skipped.find((s) => s.file.endsWith('DejaVuSansCondensed.ttf'))?.reason).toMatch(/width class 4/);
  });

  it('passes over a corrupt font, a non-font named .ttf and a collection with a reason, and keeps the rest', async () => {
    const dir = await fontFolder();
    const scan = await new SystemFonts({ dirs: [dir, join(dir, 'missing-folder')] }).list();
    expect(scan.faces).toHaveLength(BUNDLED_FONTS.length);
    const reason = (name: string): string | undefined => scan.skipped.find((s) => s.file.endsWith(name))?.reason;
    expect(reason('Truncated.ttf')).toMatch(/not a font opentype.js can read/);
    expect(reason('notes.ttf')).toMatch(/not a font opentype.js can read/);
    expect(reason('Family.ttc')).toMatch(/font collection/);
    expect(reason('DejaVuSerif-copy.ttf')).toMatch(/another file already gives DejaVu Serif 400/);
  });

  it('stops at its file cap and says so', async () => {
    const scan = await new SystemFonts({ dirs: [await fontFolder()], maxFiles: 3 }).list();
    expect(scan.capped).toBe(true);
    expect(scan.faces.length + scan.skipped.length).toBe(3);
  });

  it('stops reading files once its time is up, and keeps the faces it read by then', async () => {
    // A clock that moves a second each time it is read: the scan reads it once at the start and once
    // before each file, so a 2.5 s budget lets it read two files.
    let clock = 0;
    const scan = await new SystemFonts({
      dirs: [await fontFolder()],
      maxScanMs: 2_500,
      now: () => (clock += 1_000),
    }).list();
    expect(scan.capped).toBe(true);
    expect(scan.faces.length + scan.skipped.length).toBe(2);
  });

  it('reads a file only by its catalogue id, and fingerprints it when read', async () => {
    const fonts = new SystemFonts({ dirs: [DEBIAN_DEJAVU] });
    const face = (await fonts.list()).faces.find((f) => f.file === 'DejaVuSans.ttf')!;
    const bytes = await readFile(join(DEBIAN_DEJAVU, 'DejaVuSans.ttf'));
    const read = await fonts.read(face.id);
    expect(read.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await fonts.sha256(face.id)).toBe(read.sha256);
    await expect(fonts.read(join(DEBIAN_DEJAVU, 'DejaVuSans.ttf'))).rejects.toThrow(
      /No font .* was found on this computer/,
    );
    await expect(fonts.read('0123456789abcdef')).rejects.toThrow(/No font/);
  });

  it('the bridge takes a catalogue id, never a path', () => {
    const args = bridgeCalls['text.font'].args;
    expect(args.safeParse(['system:0123456789abcdef']).success).toBe(true);
    expect(args.safeParse(['system:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf']).success).toBe(false);
    expect(args.safeParse(['../../etc/passwd']).success).toBe(false);
  });

  it("walks the platform's own font folders", () => {
    expect(platformFontDirs('linux', {}, '/home/a')).toEqual([
      '/usr/share/fonts',
      '/usr/local/share/fonts',
      '/home/a/.local/share/fonts',
      '/home/a/.fonts',
    ]);
    expect(platformFontDirs('darwin', {}, '/Users/a')).toEqual([
      '/System/Library/Fonts',
      '/Library/Fonts',
      '/Users/a/Library/Fonts',
    ]);
    expect(
      platformFontDirs(
        'win32',
        { WINDIR: 'C:\\Windows', LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' },
        'C:\\Users\\a',
      ),
    ).toHaveLength(2);
  });
});

describe("the rasteriser with this computer's fonts", () => {
  const system = new SystemFonts({ dirs: [DEBIAN_DEJAVU] });
  const files = new FontFiles(FONTS_DIR, system);
  const read: string[] = [];
  const rasteriser = new CatalogueRasteriser(
    { wasm: () => readFile(resvgWasmPath()), fontFile: (file) => (read.push(file), files.read(file)) },
    async () => (await system.list()).faces,
  );
  const style: TextStyle = {
    ...DEFAULT_TEXT_STYLE,
    shadow: null,
    content: 'Hamburgefonts',
    fontFamily: 'DejaVu Sans',
    fontWeight: 400,
  };

  it('draws a system font from its file, read by catalogue id, unlike a studio font', async () => {
    const layout = await rasteriser.layout(style);
    const sans = await rasteriser.rasterise(style, layout);
    expect(read.some((f) => /^system:[0-9a-f]{16}$/.test(f))).toBe(true);
    const ink = inkBox(sans.pixels, sans.width, sans.height)!;
    expect(ink.right - ink.left).toBeGreaterThan(layout.width * 0.8);
    const serif = await rasteriser.rasterise({ ...style, fontFamily: 'DejaVu Serif' }, layout);
    expect(Buffer.from(sans.pixels).equals(Buffer.from(serif.pixels))).toBe(false);
  });

  it('still refuses a family neither the studio nor the computer has, and a face the computer lacks', async () => {
    await expect(rasteriser.layout({ ...style, fontFamily: 'Comic Sans' })).rejects.toThrow(
      /"Comic Sans" \(regular\) is not one this studio has; choose one of .*this computer's fonts/,
    );
    await expect(rasteriser.layout({ ...style, fontFamily: 'DejaVu Math TeX Gyre', fontWeight: 700 })).rejects.toThrow(
      /this computer has the family, but not that face/,
    );
  });
});

describe('the host checking a project made elsewhere with a system font', () => {
  it("learns the fingerprint of this computer's file, so a different file under the same name is an error", async () => {
    const { TextPictures } = await import('../../../electron/services/text/text-pictures');
    const { addTextElement, createProject, validateProject } = await import('@common/composition');
    const pictures = new TextPictures({
      dir: await mkdtemp(join(tmpdir(), 'pictures-')),
      fontsDir: FONTS_DIR,
      grant: (p) => p,
      systemFonts: new SystemFonts({ dirs: [DEBIAN_DEJAVU] }),
    });
    const base = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p', name: 'Elsewhere' });
    const project = {
      ...addTextElement(
        base,
        'scene-1',
        { ...DEFAULT_TEXT_STYLE, fontFamily: 'DejaVu Sans' },
        { width: 400, height: 120 },
        { id: 'title' },
      ),
      fonts: [
        {
          family: 'DejaVu Sans',
          weight: 700 as const,
          italic: false,
          file: 'DejaVuSans-Bold.ttf',
          sha256: 'c'.repeat(64),
          system: true as const,
        },
      ],
    };
    await pictures.knowFontsOf(project);
    const problem = validateProject(project, { purpose: 'preview' }).find((p) => p.code === 'text-font');
    expect(problem?.message).toMatch(
      /"DejaVu Sans" \(bold, DejaVuSans-Bold\.ttf\) on this computer is a different file/,
    );
  });
});
