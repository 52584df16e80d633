import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The one way the studio replaces a file so that readers see either the old or the new content, never
 * half of one: the text goes to a temporary sibling, is flushed to disk, then renamed over the target,
 * and the folder is flushed too so the rename itself survives a power cut.
 *
 * `writeFileAtomic` does all of it for one file. Writers of many files at once (the jobs ledger's group
 * commit) call `replaceFile` for each and `syncFolder` once per batch, so a burst of records costs one
 * folder flush and nothing is reported durable before it.
 */
export interface AtomicFileSystem {
  open: typeof open;
  rename: typeof rename;
  rm: typeof rm;
  mkdir: typeof mkdir;
}

export const nodeFileSystem: AtomicFileSystem = { open, rename, rm, mkdir };

export interface ReplaceOptions {
  /** false skips the file's flush: it then survives the process being killed, not a power cut. */
  durable?: boolean;
  /** File mode of a newly created file (records that name paid jobs are private: 0o600). */
  mode?: number;
  /**
   * The temporary sibling's name. Default: a random hidden name, so concurrent writers of one target
   * never share it. A writer that never writes one target twice at once may pass a fixed name, which
   * a crash then cannot leave behind as more than one leftover per file.
   */
  tempPath?: string;
  /** The file operations used; tests pass a recorder to prove the order of writes and flushes. */
  fs?: AtomicFileSystem;
}

/** Temporary file, flushed, renamed over `path`; the folder is not flushed (see syncFolder). */
export async function replaceFile(path: string, text: string, options: ReplaceOptions = {}): Promise<void> {
  const fs = options.fs ?? nodeFileSystem;
  const temp = options.tempPath ?? join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'w', options.mode);
    try {
      await handle.writeFile(text, 'utf8');
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Writes one file atomically (see replaceFile) and, unless `durable: false`, flushes its folder so the
 * rename survives a power cut.
 */
export async function writeFileAtomic(
  path: string,
  text: string,
  options: Omit<ReplaceOptions, 'tempPath'> = {},
): Promise<void> {
  const fs = options.fs ?? nodeFileSystem;
  await fs.mkdir(dirname(path), { recursive: true });
  await replaceFile(path, text, options);
  if (options.durable !== false) await syncFolder(dirname(path), fs);
}

/** Flushes a folder's entries (a rename) to disk; a no-op where folders cannot be synced (Windows). */
export async function syncFolder(dir: string, fs: AtomicFileSystem = nodeFileSystem): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The rename is still atomic there; only its durability across a power cut is not promised.
  }
}
