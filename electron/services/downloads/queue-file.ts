import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DownloadEntry } from '../../common/bridge/downloads';

/**
 * The download queue as earlier versions kept it on disk, read once by the import into the records
 * database (records/downloads-import.ts): a whole file and a journal of the entries changed since it was
 * written. `generation` names the journal lines that belong to the file; a file without one is of 0.
 */
export const QueueFile = z.object({
  version: z.literal(1),
  generation: z.number().int().nonnegative().optional(),
  entries: z.array(DownloadEntry),
});

/** The journal beside an old queue file: the entries changed since the file was last written whole. */
export const journalOf = (file: string): string => `${file}.journal`;

const JournalLine = z.object({ g: z.number(), entry: DownloadEntry });

/**
 * The queue from its whole file (null: none yet) and its journal: the journal's lines of the file's own
 * generation replace or add entries in order. A line cut short by a crash, or otherwise unreadable, is
 * skipped and reported; an unreadable whole file throws (its owner sets it aside).
 */
export function parseQueue(
  whole: string | null,
  journal: string,
  skipped: (reason: string) => void = () => undefined,
): { generation: number; entries: DownloadEntry[] } {
  const file = whole === null ? { version: 1 as const, entries: [] } : QueueFile.parse(JSON.parse(whole));
  const generation = file.generation ?? 0;
  const entries = new Map(file.entries.map((entry) => [entry.id, entry]));
  const lines = journal.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let parsed: z.infer<typeof JournalLine>;
    try {
      parsed = JournalLine.parse(JSON.parse(line));
    } catch (error) {
      const last = index >= lines.length - 2;
      skipped(`${last ? 'the last line, cut short' : `line ${index + 1}`}: ${(error as Error).message.slice(0, 200)}`);
      return;
    }
    if (parsed.g === generation) entries.set(parsed.entry.id, parsed.entry);
  });
  return { generation, entries: [...entries.values()] };
}

/** The studio's old queue file. */
export function queueFile(dataDir: string): string {
  return join(dataDir, 'downloads', 'queue.json');
}

/** The command line's own old queue, which earlier versions kept beside the studio's. */
export function cliQueueFile(dataDir: string): string {
  return join(dataDir, 'downloads', 'cli-queue.json');
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
