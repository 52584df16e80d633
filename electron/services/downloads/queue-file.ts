import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DownloadEntry } from '../../common/bridge/downloads';

/** The download queue as kept on disk (the app's and the command line's are the same shape). */
export const QueueFile = z.object({ version: z.literal(1), entries: z.array(DownloadEntry) });

export function queueFile(dataDir: string): string {
  return join(dataDir, 'downloads', 'queue.json');
}

/** The queue the command line keeps beside the app's (so both can run on one data folder). */
export function cliQueueFile(dataDir: string): string {
  return join(dataDir, 'downloads', 'cli-queue.json');
}

/** The entries of a queue file as last written, without running them; none when absent or unreadable. */
export async function readQueueEntries(file: string): Promise<DownloadEntry[]> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return [];
  try {
    return QueueFile.parse(JSON.parse(text)).entries;
  } catch {
    return []; // the queue's owner sets a bad file aside when it next starts
  }
}

/** A complete saved copy of `url` among these entries, still on disk at the size it was saved with. */
export async function savedCopyAmong(entries: Iterable<DownloadEntry>, url: string): Promise<string | null> {
  const saved = [...entries]
    .filter((entry) => entry.state === 'saved' && entry.url === url && entry.savedPath !== null)
    .sort((a, b) => b.updatedAt - a.updatedAt);
  for (const entry of saved) {
    const info = await stat(entry.savedPath as string).catch(() => null);
    if (info?.isFile() && info.size === entry.bytes) return entry.savedPath;
  }
  return null;
}

/** Saved copies in every queue of a data folder (the app's and the command line's), read only. */
export function savedCopiesIn(dataDir: string): (url: string) => Promise<string | null> {
  return async (url) =>
    savedCopyAmong(
      [...(await readQueueEntries(queueFile(dataDir))), ...(await readQueueEntries(cliQueueFile(dataDir)))],
      url,
    );
}
