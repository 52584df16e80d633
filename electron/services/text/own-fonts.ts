import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decompress } from 'wawoff2';
import { MAX_OWN_FONT_BYTES } from '../../common/bridge/text';
import type { SystemFontFace } from '../../common/composition/text-style';
import { faceOf, type SystemFonts } from './system-fonts';

/**
 * A brand's own font files, added by the user (picked or dropped in the page, their bytes sent over
 * the bridge: the page never names a path) and kept in `<data folder>/fonts`, so they are there after
 * a restart and for the command line. Each is read by the same catalogue as this computer's fonts, so
 * the one rasteriser (resvg) draws it on the canvas, in the preview and in the result alike.
 */

/** Where a data folder keeps its own fonts (walked with this computer's, before them). */
export function ownFontsDir(dataDir: string): string {
  return join(dataDir, 'fonts');
}

/** What the file's first bytes say it is: resvg reads TrueType and OpenType; WOFF2 is unpacked to them first. */
export function fontKindOf(bytes: Uint8Array): 'ttf' | 'otf' | 'woff2' | null {
  const tag = String.fromCharCode(...bytes.subarray(0, 4));
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'OTTO') return 'otf';
  if (tag === '\u0000\u0001\u0000\u0000' || tag === 'true') return 'ttf';
  return null;
}

/**
 * Adds one font file: refused, naming it, when it is not a single TTF, OTF or WOFF2 font the studio
 * can draw (too large, another kind of file, a weight other than regular or bold); otherwise kept under
 * its content's hash (the same file added twice is one file) and listed in the catalogue at once.
 */
export async function addOwnFont(
  dir: string,
  name: string,
  bytes: Uint8Array,
  fonts: Pick<SystemFonts, 'adopt'>,
): Promise<SystemFontFace> {
  if (bytes.byteLength > MAX_OWN_FONT_BYTES)
    throw new Error(
      `"${name}" is larger than ${MAX_OWN_FONT_BYTES / 1_000_000} MB, the most a font file added may be: it was not added.`,
    );
  const kind = fontKindOf(bytes);
  if (!kind) throw new Error(`"${name}" is not a font file (TTF, OTF or WOFF2): it was not added.`);
  let plain: Uint8Array;
  try {
    plain = kind === 'woff2' ? (await decompress(bytes)).slice() : bytes;
  } catch (error) {
    throw new Error(`"${name}" is a damaged WOFF2 file (${(error as Error).message}): it was not added.`);
  }
  const ext = fontKindOf(plain) === 'otf' ? 'otf' : 'ttf';
  await mkdir(dir, { recursive: true });
  const hash = createHash('sha256').update(plain).digest('hex').slice(0, 16);
  // The name the user knows it by stays readable in the folder and in what a project records.
  const stem =
    name
      .replace(/\.[^.]*$/, '')
      .replace(/[^\w .-]+/g, '_')
      .slice(0, 100) || 'font';
  const path = join(dir, `${hash}-${stem}.${ext}`);
  // Checked before it takes its place, so a folder walk never meets a file that cannot be drawn.
  const scratch = join(dir, `.adding-${randomBytes(6).toString('hex')}.${ext}`);
  await writeFile(scratch, plain);
  try {
    const face = await faceOf(scratch);
    if ('reason' in face) throw new Error(`"${name}" cannot be used (${face.reason}): it was not added.`);
    await rename(scratch, path);
  } finally {
    await rm(scratch, { force: true });
  }
  return fonts.adopt(path);
}
