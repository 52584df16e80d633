import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { BatchRow, BatchState } from '../../common/bridge/batches';
import { RunBalance } from '../../common/jobs/run-balance';
import { writeFileAtomic } from '../projects/atomic-file';
import { readRecordFolder } from '../projects/record-folder';

/**
 * A batch as it is kept on disk. What each row's job did is not here: the ledger holds every job with
 * its batch and row (its purpose), so after a crash the ledger alone says which rows were sent, and a
 * row is never sent twice because a record here was older than the ledger.
 */
export const BatchRecord = z.object({
  version: z.literal(1),
  id: z.string().min(1).max(200),
  /** What the user calls it: the CSV's file name, or "Pasted lines". */
  label: z.string().max(500),
  createdAt: z.number(),
  rows: z.array(BatchRow),
  /** Rows that failed the checks: never sent. */
  invalid: z.array(z.number().int().nonnegative()),
  /** Why each of them was refused, by row number (batches made before this was kept have none). */
  reasons: z.record(z.string(), z.string().max(1000)).optional(),
  state: BatchState,
  concurrency: z.number().int().min(1).max(32),
  /** Failed rows the user asked to send again; each leaves the list once its new job exists. */
  retry: z.array(z.number().int().nonnegative()),
  /** File names of the results, without extension. */
  template: z.string().max(500),
  /**
   * Where the batch's Save put each row's result, by row number: the file and the link it was fetched
   * from. The archive leaves these rows alone (the batch's folder is their copy) unless the row was made
   * again since.
   */
  saved: z.record(z.string(), z.object({ path: z.string().max(4096), link: z.string().max(4096) })).optional(),
  /** The connection's balance when the batch started sending, lately, and when it ended. */
  balance: RunBalance.optional(),
});
export type BatchRecord = z.infer<typeof BatchRecord>;

/** Batches in `<data folder>/batches`, one file each, written atomically. */
export class BatchStore {
  private readonly dir: string;
  private writes = Promise.resolve();

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'batches');
  }

  async get(id: string): Promise<BatchRecord | null> {
    let text: string;
    try {
      text = await readFile(this.path(id), 'utf8');
    } catch {
      return null;
    }
    const parsed = BatchRecord.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new Error(
        `The batch record ${this.path(id)} cannot be read (${parsed.error.issues[0]?.message}); it was left as it is.`,
      );
    return parsed.data;
  }

  /** Every batch that can be read; one that cannot is moved aside (never overwritten) and skipped. */
  list(): Promise<BatchRecord[]> {
    return readRecordFolder(this.dir, (id) => this.get(id));
  }

  /** Writes are queued, so the last change always lands last. */
  put(record: BatchRecord): Promise<void> {
    const text = `${JSON.stringify(BatchRecord.parse(record), null, 1)}\n`;
    const write = this.writes.then(() => writeFileAtomic(this.path(record.id), text));
    this.writes = write.catch(() => undefined);
    return write;
  }

  private path(id: string): string {
    if (!/^[\w-]{1,200}$/.test(id)) throw new Error(`"${id}" is not a batch id`);
    return join(this.dir, `${id}.json`);
  }
}
