import type { JobView } from '../../common/bridge/jobs';
import { CAMPAIGN_ROW_ENDED, type CampaignRecord } from '../../common/campaign/record';
import type { Logger } from '../host/types';
import { writeCampaignManifest } from './campaign-manifest';

export interface ManifestWriterDeps {
  jobs(): readonly JobView[];
  /** The other campaigns saving into the record's folder (their videos there are described too). */
  others(record: CampaignRecord): Promise<readonly CampaignRecord[]>;
  log?: Logger;
}

/** Which rows have ended and how: a change of it is a row that ended (or was made again). */
function endedRows(record: CampaignRecord): string {
  let text = '';
  for (const row of record.rows)
    if (CAMPAIGN_ROW_ENDED.has(row.state)) text += `${row.row}:${row.state}:${row.fileName};`;
  return text;
}

/**
 * Keeps each campaign's manifest.csv describing its folder while it runs: rewritten (atomically) after
 * every row that ends, not only at the finish, so a cancel, a quit or a crash leaves one that matches the
 * folder. Rows ending while a write is under way are written by the next one (one write at a time per
 * campaign, the latest record always written last).
 */
export class ManifestWriter {
  private readonly seen = new Map<string, string>();
  private readonly next = new Map<string, CampaignRecord>();
  private readonly writing = new Map<string, Promise<void>>();

  constructor(private readonly deps: ManifestWriterDeps) {}

  /** A campaign changed: its manifest is written again when a row ended since the last one. */
  changed(record: CampaignRecord): void {
    const ended = endedRows(record);
    if (this.seen.get(record.id) === ended) return;
    this.seen.set(record.id, ended);
    this.write(record);
  }

  /** Writes now (the finish), after any write under way; resolves once this record is on disk. */
  async now(record: CampaignRecord): Promise<void> {
    this.seen.set(record.id, endedRows(record));
    this.write(record);
    await this.idle();
  }

  async idle(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing.values()]);
  }

  private write(record: CampaignRecord): void {
    this.next.set(record.id, record);
    if (this.writing.has(record.id)) return;
    const loop = Promise.resolve().then(async () => {
      for (let latest = this.next.get(record.id); latest; latest = this.next.get(record.id)) {
        this.next.delete(record.id);
        try {
          await writeCampaignManifest(latest, this.deps.jobs(), await this.deps.others(latest));
        } catch (error) {
          this.deps.log?.warn('the campaign manifest was not written', { id: record.id, error: String(error) });
        }
      }
      // In the same turn as the last look at `next`: a change after it starts a new loop.
      this.writing.delete(record.id);
    });
    this.writing.set(record.id, loop);
  }
}
