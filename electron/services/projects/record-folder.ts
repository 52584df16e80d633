import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every record of a folder of `<id>.json` files (batches, campaigns) that can be read, newest first.
 * One that cannot is moved aside as `<name>.unreadable` (never overwritten, never deleted) and skipped.
 */
export async function readRecordFolder<T extends { createdAt: number }>(
  dir: string,
  get: (id: string) => Promise<T | null>,
): Promise<T[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: T[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const record = await get(name.slice(0, -'.json'.length));
      if (record) found.push(record);
    } catch {
      await rename(join(dir, name), join(dir, `${name}.unreadable`)).catch(() => undefined);
    }
  }
  return found.sort((a, b) => b.createdAt - a.createdAt);
}
