import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that readers see either the old or the new content, never half of one: the text
 * goes to a temporary sibling, is flushed to disk, then renamed over the target, and the folder is
 * flushed too so the rename itself survives a power cut (as the jobs ledger does). `durable: false`
 * skips both flushes: the file still survives the process being killed, not a power cut.
 */
export async function writeFileAtomic(path: string, text: string, { durable = true }: { durable?: boolean } = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (durable) await syncFolder(dir);
}

/** Flushes a folder's entries (a rename) to disk; a no-op where folders cannot be synced (Windows). */
export async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The rename is still atomic there; only its durability across a power cut is not promised.
  }
}
