// Tests call ffmpeg and ffprobe directly to make and measure media. On a machine without them on PATH
// (a fresh one: no apt), they use the binaries the npm installer packages ship, exactly as the studio
// itself falls back to them: linked into a folder put first on PATH, and named by FFMPEG_BIN/FFPROBE_BIN.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export function provideMediaTools(root: string): void {
  const require = createRequire(join(root, 'package.json'));
  const packaged: Record<string, string> = {};
  for (const [name, pkg] of [
    ['ffmpeg', '@ffmpeg-installer/ffmpeg'],
    ['ffprobe', '@ffprobe-installer/ffprobe'],
  ] as const) {
    if (onPath(name)) continue;
    try {
      packaged[name] = (require(pkg) as { path: string }).path;
    } catch {
      // Neither on PATH nor installed: the tests that need it fail and say so.
    }
  }
  if (Object.keys(packaged).length === 0) return;
  const dir = join(root, 'node_modules', '.cache', 'studio-media-tools');
  mkdirSync(dir, { recursive: true });
  for (const [name, path] of Object.entries(packaged)) {
    rmSync(join(dir, name), { force: true });
    symlinkSync(path, join(dir, name));
    process.env[name === 'ffmpeg' ? 'FFMPEG_BIN' : 'FFPROBE_BIN'] ??= path;
  }
  process.env.PATH = `${dir}${delimiter}${process.env.PATH ?? ''}`;
}

export interface MediaToolSet {
  label: string;
  ffmpeg: string;
  ffprobe: string;
}

/**
 * The ffmpeg generations a test should see: always the npm 4.1 build the studio falls back to, and the
 * system's own ffmpeg/ffprobe when the machine has them (Debian's 5.1 here, 6.x-7.x on users' machines).
 * Paths are given to the code under test; nothing relies on PATH order.
 */
export function mediaToolGenerations(root = join(import.meta.dirname, '..')): MediaToolSet[] {
  const require = createRequire(join(root, 'package.json'));
  const npm = {
    ffmpeg: realpathSync((require('@ffmpeg-installer/ffmpeg') as { path: string }).path),
    ffprobe: realpathSync((require('@ffprobe-installer/ffprobe') as { path: string }).path),
  };
  const sets: MediaToolSet[] = [{ label: `npm ffmpeg ${versionOf(npm.ffmpeg)}`, ...npm }];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const ffmpeg = executable(join(dir, 'ffmpeg'));
    const ffprobe = executable(join(dir, 'ffprobe'));
    if (!ffmpeg || !ffprobe || ffmpeg === npm.ffmpeg) continue;
    sets.push({ label: `system ffmpeg ${versionOf(ffmpeg)}`, ffmpeg, ffprobe });
    break;
  }
  return sets;
}

function executable(path: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    return realpathSync(path);
  } catch {
    return null;
  }
}

function versionOf(ffmpeg: string): string {
  const banner = spawnSync(ffmpeg, ['-version'], { encoding: 'utf8' }).stdout ?? '';
  return /ffmpeg version (?:n)?([\d.]+)/.exec(banner)?.[1] ?? '(unknown version)';
}
