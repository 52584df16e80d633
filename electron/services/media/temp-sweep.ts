import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes what an interrupted run left behind: `.part` files in the cache, proxy and preview folders
 * (they are never resumed) and everything in the scratch folder, once older than `olderThanMs` (so a
 * render running in another window keeps its files). Downloads keep their `.part` files: they resume.
 */
export async function sweepTemporaries(
  dirs: { partsIn: string[]; scratch: string },
  olderThanMs = 3600_000,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  const sweep = async (dir: string, matches: (name: string) => boolean) => {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!matches(name)) continue;
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile() || now - info.mtimeMs < olderThanMs) continue;
      await rm(path, { force: true });
      removed += 1;
    }
  };
  for (const dir of dirs.partsIn) await sweep(dir, (name) => name.endsWith('.part'));
  await sweep(dirs.scratch, () => true);
  return removed;
}
