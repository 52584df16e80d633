import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';

export interface FolderCheck {
  folder: string;
  ok: boolean;
  message: string;
}

/**
 * A folder typed by the user to save into: absolute, and either a writable folder or one that can be
 * made inside the nearest folder that exists. Nothing is created unless `create` is set (the user
 * confirmed): checking as the user types must leave no trace on disk.
 */
export async function checkSaveFolder(
  raw: string,
  { create = false }: { create?: boolean } = {},
): Promise<FolderCheck> {
  const typed = raw.trim().replace(/^~(?=$|[\\/])/, homedir());
  if (typed === '') return { folder: typed, ok: false, message: 'Type the folder to save into.' };
  if (!isAbsolute(typed))
    return {
      folder: typed,
      ok: false,
      message: `"${typed}" is not a full path; start it with / (or a drive letter on Windows).`,
    };
  const folder = resolve(typed);
  try {
    if (create) await mkdir(folder, { recursive: true });
    const existing = await nearestExisting(folder);
    if (!existing.info.isDirectory()) {
      return { folder, ok: false, message: `Cannot save in ${folder}: a file has the name ${existing.path}.` };
    }
    await access(existing.path, constants.W_OK);
    const made = existing.path === folder ? '' : ' (the folder is made when the download starts)';
    return { folder, ok: true, message: `Files will be saved in ${folder}${made}.` };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      code === 'EACCES' || code === 'EPERM'
        ? 'the studio may not write there'
        : code === 'ENOTDIR' || code === 'EEXIST'
          ? 'a file has that name'
          : (error as Error).message;
    return { folder, ok: false, message: `Cannot save in ${folder}: ${why}.` };
  }
}

/** The folder itself or its closest ancestor that exists (the root always does). */
async function nearestExisting(folder: string): Promise<{ path: string; info: Awaited<ReturnType<typeof stat>> }> {
  let path = folder;
  for (;;) {
    const info = await stat(path).catch((error: { code?: string }) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (info) return { path, info };
    const parent = dirname(path);
    if (parent === path) throw new Error('no part of the path exists');
    path = parent;
  }
}
