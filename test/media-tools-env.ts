// Tests call ffmpeg and ffprobe directly to make and measure media. On a machine without them on PATH
// (a fresh one: no apt), they use the binaries the npm installer packages ship, exactly as the studio
// itself falls back to them: linked into a folder put first on PATH, and named by FFMPEG_BIN/FFPROBE_BIN.
import { accessSync, constants, mkdirSync, rmSync, symlinkSync } from 'node:fs';
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
  for (const [name, pkg] of [['ffmpeg', '@ffmpeg-installer/ffmpeg'], ['ffprobe', '@ffprobe-installer/ffprobe']] as const) {
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
