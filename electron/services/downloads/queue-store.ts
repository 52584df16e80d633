import { existsSync, readFileSync, renameSync } from 'node:fs';
import type { DownloadEntry } from '../../common/bridge/downloads';
import type { Logger } from '../host/types';
import { writeFileAtomic } from '../projects/atomic-file';
import { QueueFile } from './queue-file';

/**
 * The download queue's file: read once, then rewritten atomically with the newest entries. Writes asked
 * for while one runs fold into one more write of the newest state, flushed to the disk when any of them
 * asked for it. A file that cannot be read is set aside (named in the log), never overwritten unread.
 */
export class QueueStore {
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  /** The pending write must reach the disk (not only survive the process). */
  private flush = false;

  constructor(
    private readonly file: string,
    private readonly entries: () => Iterable<DownloadEntry>,
    private readonly log?: Logger,
  ) {}

  load(): DownloadEntry[] {
    if (!existsSync(this.file)) return [];
    try {
      return QueueFile.parse(JSON.parse(readFileSync(this.file, 'utf8'))).entries;
    } catch (error) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      renameSync(this.file, aside);
      this.log?.warn('download queue set aside', { file: aside, reason: (error as Error).message });
      return [];
    }
  }

  save({ durable = true }: { durable?: boolean } = {}): Promise<void> {
    this.flush ||= durable;
    if (this.dirty) return this.writing;
    this.dirty = true;
    this.writing = this.writing.then(async () => {
      this.dirty = false;
      const flush = this.flush;
      this.flush = false;
      const text = JSON.stringify({ version: 1, entries: [...this.entries()] });
      await writeFileAtomic(this.file, text, { durable: flush }).catch((error: unknown) => {
        this.log?.error('download queue not written', { error });
      });
    });
    return this.writing;
  }

  /** Settles once every write asked for so far is done. */
  written(): Promise<void> {
    return this.writing;
  }
}
