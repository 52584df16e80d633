import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname, join } from 'node:path';
import * as opentypeModule from 'opentype.js';
import type { SystemFontFace } from '../../common/composition/text-style';

/**
 * This computer's fonts, found by walking the platform's font folders once, the first time they are
 * asked for (never at start-up). Only faces the studio's model can name are kept: regular (400) and bold
 * (700), upright or italic, normal width. A font file is read through its catalogue id only, so the page
 * can never name a path; its SHA-256 is taken when it is first read, not for every file at the scan.
 */

export interface SkippedFont {
  file: string;
  reason: string;
}

export interface SystemFontScan {
  faces: SystemFontFace[];
  skipped: SkippedFont[];
  /** True when the file cap or the time budget stopped the scan before every font file was read. */
  capped: boolean;
}

export interface SystemFontsOptions {
  /** Folders to walk; the platform's own when absent. */
  dirs?: readonly string[];
  /** At most this many font files are opened (a machine with thousands of fonts is not scanned whole). */
  maxFiles?: number;
  /** Font files are read until this much time has gone by; the faces found so far are the catalogue. */
  maxScanMs?: number;
  now?: () => number;
}

const opentype = (
  (opentypeModule as { parse?: unknown }).parse
    ? opentypeModule
    : (opentypeModule as unknown as { default: typeof opentypeModule }).default
) as typeof opentypeModule;

const MAX_FILES = 1500;
/**
 * Each file is parsed on the host's thread, one at a time (the host answers other calls between files).
 * Slow disks (a network home folder) or many large fonts could keep the first picker waiting far
 * longer than the file cap alone allows.
 */
const MAX_SCAN_MS = 20_000;
const FONT_EXTENSIONS = new Set(['.ttf', '.otf', '.ttc']);
/** Larger files are nearly always CJK families whose full parse costs seconds; the studio ships script fonts for those scripts. */
const MAX_FILE_BYTES = 40 * 1024 * 1024;

/** The platform's font folders (system-wide first, the user's own after). */
export function platformFontDirs(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): string[] {
  if (platform === 'darwin') return ['/System/Library/Fonts', '/Library/Fonts', join(home, 'Library', 'Fonts')];
  if (platform === 'win32') {
    const dirs = [join(env.WINDIR ?? 'C:\\Windows', 'Fonts')];
    if (env.LOCALAPPDATA) dirs.push(join(env.LOCALAPPDATA, 'Microsoft', 'Windows', 'Fonts'));
    return dirs;
  }
  return ['/usr/share/fonts', '/usr/local/share/fonts', join(home, '.local', 'share', 'fonts'), join(home, '.fonts')];
}

export class SystemFonts {
  private scan: Promise<SystemFontScan> | null = null;
  private readonly paths = new Map<string, string>();
  private readonly digests = new Map<string, string>();

  /** Folders of the user's own font files (own-fonts.ts), walked before the platform's: theirs win a tie. */
  private readonly own: string[] = [];

  constructor(private readonly options: SystemFontsOptions = {}) {}

  /** The catalogue, scanned on the first call and kept. */
  list(): Promise<SystemFontScan> {
    this.scan ??= this.walk();
    return this.scan;
  }

  /** Adds a folder of the user's own fonts; a catalogue already read takes its files in now. */
  include(dir: string): void {
    if (this.own.includes(dir)) return;
    this.own.push(dir);
    const scanned = this.scan;
    if (!scanned) return;
    this.scan = scanned.then(async (scan) => {
      const files: string[] = [];
      await collect(dir, files, this.options.maxFiles ?? MAX_FILES);
      for (const path of files.sort()) await this.adoptInto(scan, path).catch(() => undefined);
      return scan;
    });
  }

  /**
   * Lists one of the user's own font files (checked by faceOf): it takes the place of a face of the same
   * family, weight and slant, so a brand's file is drawn rather than an installed namesake.
   */
  async adopt(path: string): Promise<SystemFontFace> {
    return this.adoptInto(await this.list(), path);
  }

  private async adoptInto(scan: SystemFontScan, path: string): Promise<SystemFontFace> {
    const parsed = await faceOf(path);
    if ('reason' in parsed) throw new Error(`${basename(path)}: ${parsed.reason}`);
    const id = createHash('sha256').update(path).digest('hex').slice(0, 16);
    const face: SystemFontFace = { id, ...parsed, file: ownFileName(path), own: true };
    const same = (f: SystemFontFace) =>
      f.family === face.family && f.weight === face.weight && f.italic === face.italic;
    scan.faces = [...scan.faces.filter((f) => !same(f)), face].sort(byFace);
    this.paths.set(id, path);
    this.digests.delete(id);
    return face;
  }

  /** A listed face's bytes and SHA-256, by its catalogue id; any other id is refused. */
  async read(id: string): Promise<{ bytes: Uint8Array; sha256: string }> {
    await this.list();
    const path = this.paths.get(id);
    if (!path) throw new Error(`No font "${id}" was found on this computer.`);
    const bytes = new Uint8Array(await readFile(path));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    this.digests.set(id, sha256);
    return { bytes, sha256 };
  }

  /** A listed face's SHA-256 (reads the file the first time). */
  async sha256(id: string): Promise<string> {
    return this.digests.get(id) ?? (await this.read(id)).sha256;
  }

  private async walk(): Promise<SystemFontScan> {
    const maxFiles = this.options.maxFiles ?? MAX_FILES;
    const now = this.options.now ?? Date.now;
    const deadline = now() + (this.options.maxScanMs ?? MAX_SCAN_MS);
    const files: string[] = [];
    let capped = false;
    for (const dir of [...this.own, ...(this.options.dirs ?? platformFontDirs())]) {
      capped = await collect(dir, files, maxFiles);
      if (capped) break;
    }
    const own = (path: string) => this.own.some((dir) => path.startsWith(join(dir, '/')));
    const faces: SystemFontFace[] = [];
    const skipped: SkippedFont[] = [];
    const taken = new Set<string>();
    // The user's own files first (a tie goes to the first face read), then the platform's, each sorted.
    files.sort((a, b) => Number(own(b)) - Number(own(a)) || a.localeCompare(b));
    for (const path of files) {
      if (now() > deadline) {
        capped = true;
        break;
      }
      const face = await faceOf(path);
      if ('reason' in face) {
        skipped.push({ file: path, reason: face.reason });
        continue;
      }
      const key = `${face.family}|${face.weight}|${face.italic}`;
      if (taken.has(key)) {
        skipped.push({
          file: path,
          reason: `another file already gives ${face.family} ${face.weight}${face.italic ? ' italic' : ''}`,
        });
        continue;
      }
      taken.add(key);
      const id = createHash('sha256').update(path).digest('hex').slice(0, 16);
      this.paths.set(id, path);
      const mine = own(path);
      faces.push({
        id,
        family: face.family,
        weight: face.weight,
        italic: face.italic,
        file: mine ? ownFileName(path) : basename(path),
        ...(mine ? { own: true } : {}),
      });
    }
    faces.sort(byFace);
    return { faces, skipped, capped };
  }
}

const byFace = (a: SystemFontFace, b: SystemFontFace): number =>
  a.family.localeCompare(b.family) || a.weight - b.weight || Number(a.italic) - Number(b.italic);

/** An own font's name as the user gave it: its file in the folder is "<hash>-<name>.ttf". */
const ownFileName = (path: string): string => basename(path).replace(/^[0-9a-f]{16}-/, '');

/** Adds the font files under `dir` to `files`; true when the cap was reached. A folder that cannot be read is passed over. */
async function collect(dir: string, files: string[], maxFiles: number): Promise<boolean> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (await collect(path, files, maxFiles)) return true;
    } else if (FONT_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      if (files.length >= maxFiles) return true;
      files.push(path);
    }
  }
  return false;
}

type ParsedFace = Pick<SystemFontFace, 'family' | 'weight' | 'italic'> | { reason: string };

/** What one file offers the studio, or why it is passed over. */
export async function faceOf(path: string): Promise<ParsedFace> {
  // opentype.js reads one font per file; a collection would need a face index the SVG cannot carry.
  if (extname(path).toLowerCase() === '.ttc')
    return { reason: 'a font collection (.ttc): only single-font files are read' };
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return { reason: `could not be read: ${(error as Error).message}` };
  }
  if (bytes.byteLength > MAX_FILE_BYTES) return { reason: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
  let font: opentypeModule.Font;
  try {
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), {
      lowMemory: true,
    });
  } catch (error) {
    return { reason: `not a font opentype.js can read: ${(error as Error).message}` };
  }
  const os2 = font.tables.os2 as { usWeightClass?: number; usWidthClass?: number; fsSelection?: number } | undefined;
  // opentype.js groups the name table by platform (Windows' names are what fontdb reads first).
  const grouped = font.names as unknown as Record<
    string,
    Record<string, Record<string, string> | undefined> | undefined
  >;
  const names = { ...grouped.macintosh, ...grouped.windows };
  // resvg (fontdb) names a face by its typographic family when it has one, else by its family: match it.
  const family = english(names.preferredFamily ?? names.typoFamilyName) ?? english(names.fontFamily);
  if (!family) return { reason: 'has no family name' };
  if (!font.supported) return { reason: 'its outlines are in a format opentype.js does not support' };
  const macStyle = (font.tables.head as { macStyle?: number } | undefined)?.macStyle ?? 0;
  const weightClass = os2?.usWeightClass ?? (macStyle & 1 ? 700 : 400);
  const weight = weightClass === 400 ? 400 : weightClass === 700 ? 700 : null;
  if (weight === null) return { reason: `weight ${weightClass}: the studio draws regular (400) and bold (700) only` };
  if (os2?.usWidthClass !== undefined && os2.usWidthClass !== 5)
    return { reason: `width class ${os2.usWidthClass}: only normal-width faces are offered` };
  // fsSelection: bit 0 italic, bit 9 oblique (DejaVu's slanted faces are obliques).
  const italic = os2?.fsSelection !== undefined ? (os2.fsSelection & 0x201) !== 0 : (macStyle & 2) !== 0;
  return { family, weight, italic };
}

function english(name: Record<string, string> | undefined): string | null {
  const value = name?.en ?? (name ? Object.values(name)[0] : undefined);
  return value?.trim() || null;
}

let shared: SystemFonts | null = null;

/** The process's one catalogue of this computer's fonts (the host, the Electron main process and the CLI each keep one). */
export function sharedSystemFonts(): SystemFonts {
  shared ??= new SystemFonts();
  return shared;
}
