import { existsSync, readFileSync, renameSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DownloadEntry } from '../../common/bridge/downloads';
import type { Logger } from '../host/types';
import { writeFileAtomic } from '../projects/atomic-file';
import { journalLine, journalOf, parseQueue } from './queue-file';

/** The journal is folded into the whole file once it is larger than that file, and never below this. */
const MIN_JOURNAL_BYTES = 256 * 1024;

/**
 * The download queue's file and its journal. The queue is the record of copies, so it grows with every
 * result saved: rewriting it whole on each change made a 10,000-row campaign's saves grow with the square
 * of its rows. A change is therefore appended to the journal (one line per changed entry, tagged with the
 * whole file's generation), and the whole file is rewritten only once the journal outgrows it, with the
 * next generation, so lines of an older generation left by a crash are ignored, never replayed over newer
 * entries. Writes asked for while one runs fold into one more, flushed to the disk when any of them asked
 * for it. A file that cannot be read is set aside (named in the log), never overwritten unread.
 */
export class QueueStore {
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;
  /** The pending write must reach the disk (not only survive the process). */
  private flush = false;
  private readonly changed = new Map<string, DownloadEntry>();
  private generation = 0;
  private wholeBytes = 0;
  private journalBytes = 0;
  private journal: FileHandle | null = null;
  /** Whether this process wrote anything to the queue: only then does a clean stop rewrite it. */
  private wrote = false;

  constructor(
    private readonly file: string,
    private readonly entries: () => Iterable<DownloadEntry>,
    private readonly log?: Logger,
  ) {}

  load(): DownloadEntry[] {
    const whole = existsSync(this.file) ? readFileSync(this.file, 'utf8') : null;
    const journal = existsSync(journalOf(this.file)) ? readFileSync(journalOf(this.file), 'utf8') : '';
    try {
      const queue = parseQueue(whole, journal, (reason) =>
        this.log?.warn('download queue journal line skipped', { reason }),
      );
      this.generation = queue.generation;
      this.wholeBytes = whole?.length ?? 0;
      this.journalBytes = journal.length;
      return queue.entries;
    } catch (error) {
      const stamp = Date.now();
      const aside = `${this.file}.corrupt-${stamp}`;
      renameSync(this.file, aside);
      // Its lines belong to the file set aside: replayed over an empty queue they would be half a record.
      if (journal) renameSync(journalOf(this.file), `${journalOf(this.file)}.corrupt-${stamp}`);
      this.log?.warn('download queue set aside', { file: aside, reason: (error as Error).message });
      return [];
    }
  }

  /**
   * Records these entries as they are now (and everything changed before), once the write under way is
   * done. `durable: false` survives the process being killed, not a power cut.
   */
  save(changed: Iterable<DownloadEntry> = [], { durable = true }: { durable?: boolean } = {}): Promise<void> {
    for (const entry of changed) this.changed.set(entry.id, entry);
    this.flush ||= durable;
    if (this.scheduled) return this.writing;
    this.scheduled = true;
    this.writing = this.writing.then(async () => {
      this.scheduled = false;
      const flush = this.flush;
      this.flush = false;
      const entries = [...this.changed.values()];
      this.changed.clear();
      await this.write(entries, flush).catch((error: unknown) => {
        // Kept for the next write: a change must not be dropped because one write failed.
        for (const entry of entries) if (!this.changed.has(entry.id)) this.changed.set(entry.id, entry);
        this.log?.error('download queue not written', { error });
      });
    });
    return this.writing;
  }

  /** Settles once every write asked for so far is done. */
  written(): Promise<void> {
    return this.writing;
  }

  private async write(entries: readonly DownloadEntry[], durable: boolean): Promise<void> {
    if (entries.length === 0) return;
    if (this.journalBytes > Math.max(this.wholeBytes, MIN_JOURNAL_BYTES)) return this.rewrite(durable);
    const text = entries.map((entry) => journalLine(this.generation, entry)).join('');
    this.journal ??= await this.openJournal('a');
    this.wrote = true;
    await this.journal.write(text);
    if (durable) await this.journal.datasync();
    this.journalBytes += Buffer.byteLength(text);
  }

  private async rewrite(durable: boolean): Promise<void> {
    const generation = this.generation + 1;
    this.wrote = true;
    // Every entry as it is now, so the changes still waiting are in it too.
    this.changed.clear();
    const text = JSON.stringify({ version: 1, generation, entries: [...this.entries()] });
    await writeFileAtomic(this.file, text, { durable });
    // From here on the journal's lines are of an older generation: skipped if the truncation is lost.
    this.generation = generation;
    this.wholeBytes = text.length;
    await this.journal?.close();
    this.journal = await this.openJournal('w');
    this.journalBytes = 0;
  }

  private async openJournal(flags: 'a' | 'w'): Promise<FileHandle> {
    await mkdir(dirname(this.file), { recursive: true });
    return open(journalOf(this.file), flags, 0o600);
  }

  /**
   * Writes the whole queue, empties the journal and closes it: a clean stop leaves one plain file. A
   * process that wrote nothing (a command that only reads, beside a studio that may own the folder)
   * leaves the files as they are: its rewrite bumped the generation under the owner, whose later journal
   * lines were then skipped as an older generation's, and "commands that only read write nothing".
   */
  async close(): Promise<void> {
    const done = this.writing.then(() => (this.wrote || this.changed.size > 0 ? this.rewrite(true) : undefined));
    this.writing = done.catch((error: unknown) => this.log?.error('download queue not written', { error }));
    await this.writing;
    await this.journal?.close();
    this.journal = null;
  }
}
