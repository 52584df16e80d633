import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CampaignRecord } from '../../common/campaign/record';
import { writeFileAtomic } from '../projects/atomic-file';
import { readRecordFolder } from '../projects/record-folder';

/**
 * Campaigns in `<data folder>/campaigns`, one file each, written atomically (temporary file, fsync,
 * rename). A row changes state often, so writes are coalesced: while one is on its way, only the newest
 * record waits behind it. Losing the last change in a crash costs nothing paid: the ledger holds which
 * jobs each row made, and the runner reads it again before sending anything.
 */
export class CampaignStore {
  private readonly dir: string;
  private readonly writing = new Map<string, Promise<void>>();
  private readonly waiting = new Map<string, CampaignRecord>();

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'campaigns');
  }

  async get(id: string): Promise<CampaignRecord | null> {
    let text: string;
    try {
      text = await readFile(this.path(id), 'utf8');
    } catch {
      return null;
    }
    let parsed;
    try {
      parsed = CampaignRecord.safeParse(JSON.parse(text));
    } catch (error) {
      throw new Error(
        `The campaign record ${this.path(id)} is not valid JSON (${(error as Error).message}); it was left as it is.`,
        { cause: error },
      );
    }
    if (!parsed.success)
      throw new Error(
        `The campaign record ${this.path(id)} cannot be read (${parsed.error.issues[0]?.message}); it was left as it is.`,
      );
    return parsed.data;
  }

  /** Every campaign that can be read, newest first; one that cannot is moved aside (never overwritten) and skipped. */
  list(): Promise<CampaignRecord[]> {
    return readRecordFolder(this.dir, (id) => this.get(id));
  }

  /**
   * Resolves once this record (or a newer one of the same campaign) is on disk. Checked when read, not
   * here: a campaign of 10,000 rows changes thousands of times, and its type already holds.
   */
  put(record: CampaignRecord): Promise<void> {
    const checked = record;
    this.waiting.set(checked.id, checked);
    const before = this.writing.get(checked.id) ?? Promise.resolve();
    const next = before.then(async () => {
      const latest = this.waiting.get(checked.id);
      if (!latest) return;
      this.waiting.delete(checked.id);
      await writeFileAtomic(this.path(latest.id), `${JSON.stringify(latest)}\n`);
    });
    const settled = next.catch(() => undefined);
    this.writing.set(checked.id, settled);
    void settled.then(() => {
      if (this.writing.get(checked.id) === settled) this.writing.delete(checked.id);
    });
    return next;
  }

  /** Settles once every write asked for so far is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.writing.values()]);
  }

  private path(id: string): string {
    if (!/^[\w-]{1,200}$/.test(id)) throw new Error(`"${id}" is not a campaign id`);
    return join(this.dir, `${id}.json`);
  }
}
