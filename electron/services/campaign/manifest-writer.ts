import type { JobView } from '../../common/bridge/jobs';
import { CAMPAIGN_ROW_ENDED, type CampaignRecord } from '../../common/campaign/record';
import type { Logger } from '../host/types';
import { writeCampaignManifest } from './campaign-manifest';
import { PacedWrite } from './paced-write';
import { PAUSE_PER_TASK } from '../../common/campaign/pause-after';

export interface ManifestWriterDeps {
  /** A campaign's jobs. */
  jobs(campaignId: string): readonly JobView[];
  /** The other campaigns saving into the record's folder (their videos there are described too). */
  others(record: CampaignRecord): Promise<readonly CampaignRecord[]>;
  log?: Logger;
  /** Times each write, which sets the pause before the next (tests say how long one took). */
  clock?: () => number;
  /** Writes the manifest file (tests count the writes instead). */
  write?: typeof writeCampaignManifest;
}

type Row = CampaignRecord['rows'][number];
const endedHow = (row: Row) => CAMPAIGN_ROW_ENDED.has(row.state);

/**
 * Whether a row ended (or was made again) between two versions of a campaign's rows. Rows are replaced,
 * never changed in place, so only the rows that are new objects are looked at: building a text of every
 * ended row at each change (several a row) cost a campaign of 10,000 rows about a millisecond each.
 */
function endingsDiffer(before: readonly Row[], after: readonly Row[]): boolean {
  if (before.length !== after.length) return true;
  for (let i = 0; i < after.length; i++) {
    const [was, is] = [before[i] as Row, after[i] as Row];
    if (was === is || (!endedHow(was) && !endedHow(is))) continue;
    if (was.row !== is.row || was.state !== is.state || was.fileName !== is.fileName) return true;
  }
  return false;
}

/**
 * Keeps each campaign's manifest.csv describing its folder while it runs, rewritten whole (atomically)
 * after rows end. A write covers every row, so its cost grows with the campaign: after a write that
 * took d ms, the next one a row's end asks for waits 99·d (1 to 30 s: a hundredth of the thread, as
 * nobody reads the file before the run ends) and takes in every row that ended meanwhile
 * (paced-write.ts). So a crash leaves a manifest at most one pause behind the folder, and the
 * campaign's next start or its finish writes it whole; the finish, a cancel and a quit write at once.
 */
export class ManifestWriter {
  /** Each campaign's rows as they were last looked at or written (a copy of the array: the rows are shared). */
  private readonly seen = new Map<string, readonly Row[]>();
  private readonly files = new Map<string, PacedWrite<CampaignRecord>>();

  constructor(private readonly deps: ManifestWriterDeps) {}

  /** A campaign changed: its manifest is written again, at the pace, when a row ended since the last one. */
  changed(record: CampaignRecord): void {
    const file = this.fileOf(record.id);
    // A write waits already and takes the campaign as it is then: nothing to compare. Comparing every
    // change with the last cost a 100,000-row campaign a walk of its rows at each of a row's changes.
    if (file.waits) return void file.set(record);
    const before = this.seen.get(record.id);
    this.seen.set(record.id, record.rows.slice());
    if (before && !endingsDiffer(before, record.rows)) return;
    void file.set(record);
  }

  /** Writes at once (after a write under way, never after a pause); resolves once this record is on disk. */
  now(record: CampaignRecord): Promise<void> {
    this.seen.set(record.id, record.rows.slice());
    return this.fileOf(record.id).now(record);
  }

  /** Writes every manifest waiting at once (the host stops), and resolves when none is being written. */
  async idle(): Promise<void> {
    const busy = () => [...this.files.values()].filter((file) => file.busy);
    for (let writing = busy(); writing.length > 0; writing = busy())
      await Promise.all(writing.map((file) => file.settle()));
  }

  private fileOf(id: string): PacedWrite<CampaignRecord> {
    let file = this.files.get(id);
    if (!file) {
      const write = this.deps.write ?? writeCampaignManifest;
      file = new PacedWrite<CampaignRecord>({
        write: async (record) => {
          // What the next change is compared with: the rows as written (changes skipped while it waited are in it).
          this.seen.set(record.id, record.rows.slice());
          return write(record, this.deps.jobs(record.id), await this.deps.others(record));
        },
        clock: this.deps.clock,
        perWrite: PAUSE_PER_TASK.unwatched,
        failed: (error) => this.deps.log?.warn('the campaign manifest was not written', { id, error: String(error) }),
      });
      this.files.set(id, file);
    }
    return file;
  }
}
