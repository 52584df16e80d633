import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { DownloadEntry } from '../../common/bridge/downloads';

export interface CopyCheck {
  state: 'saved' | 'missing' | 'changed';
  /** The hash and modification time to remember when the copy is as written. */
  sha256: string | null;
  mtimeMs: number | null;
}

/**
 * Is a saved copy still the file that was written? Gone (or unreadable: an unmounted disk) is missing;
 * another length, or another content hash, is changed. A copy whose length and modification time are
 * those its hash was taken at is not read again unless `deep` (the check at start reads every copy);
 * a copy saved before hashes were kept gets its hash now, and says so by `sha256` being new.
 */
export async function checkCopy(entry: Pick<DownloadEntry, 'savedPath' | 'bytes' | 'sha256' | 'mtimeMs'>, { deep }: { deep: boolean }): Promise<CopyCheck> {
  const gone: CopyCheck = { state: 'missing', sha256: entry.sha256, mtimeMs: entry.mtimeMs };
  if (!entry.savedPath) return gone;
  const info = await stat(entry.savedPath).catch(() => null);
  if (!info?.isFile()) return gone;
  if (info.size !== entry.bytes) return { state: 'changed', sha256: entry.sha256, mtimeMs: entry.mtimeMs };
  if (!deep && entry.sha256 !== null && entry.mtimeMs === info.mtimeMs) return { state: 'saved', sha256: entry.sha256, mtimeMs: info.mtimeMs };
  const sha256 = await hashFile(entry.savedPath).catch(() => null);
  if (sha256 === null) return gone;
  if (entry.sha256 !== null && sha256 !== entry.sha256) return { state: 'changed', sha256: entry.sha256, mtimeMs: entry.mtimeMs };
  return { state: 'saved', sha256, mtimeMs: info.mtimeMs };
}

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
