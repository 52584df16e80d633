import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CampaignRecord, type CampaignRowRecord } from '../../common/campaign/record';
import type { RowMaker } from '../rows/row-worker';
import type { JobView } from '../../common/bridge/jobs';
import type { CampaignRows } from './campaign-rows';

async function fileFacts(path: string): Promise<{ path: string; bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { path, bytes: (await stat(path)).size, sha256: hash.digest('hex') };
}

/**
 * A worker's campaign rows: each is made as a campaign of one row on this worker's row engine (the same
 * steps as any campaign: voiceovers, the fitted video, the save), saved into `<folder>/<campaign id>`,
 * and let go of once made. Its id names the queued campaign, row and take, so a worker that takes a row
 * over writes the same intents as the one that began it, and follows the jobs that one made.
 */
export function campaignRowMaker(campaigns: CampaignRows, folder: string, ledger: () => JobView[]): RowMaker {
  return {
    kind: 'campaign',
    async make(queued, row) {
      const id = `${queued.id}-${row.row}-${row.take}`;
      const record = CampaignRecord.parse({
        ...queued,
        id,
        outDir: join(folder, queued.id),
        state: 'running',
        pause: null,
        balance: undefined,
        queue: null,
        // The queued campaign's cap is the studio's to keep over every row; a row alone has none.
        maxCredits: null,
        partOf: queued.id,
        rows: [{ ...row, state: 'pending' }],
      });
      if (await campaigns.get(id)) await campaigns.replace(record);
      else await campaigns.create(record);
      const ended = await campaigns.run(id);
      const made = ended.rows[0] as CampaignRowRecord;
      const file = made.state === 'done' ? await fileFacts(join(record.outDir, made.fileName)) : null;
      await campaigns.forget(id);
      // The row's jobs, named as the queued campaign's, for the studio that queued it to record.
      const jobs = ledger().flatMap((job) =>
        job.purpose?.type === 'campaign-row' && job.purpose.campaignId === id && job.remoteId !== null
          ? [{ ...job, purpose: { ...job.purpose, campaignId: queued.id } }]
          : [],
      );
      if (ended.state === 'paused' && ended.pause) return { outcome: 'paused', record: made, pause: ended.pause, jobs };
      return { outcome: 'ended', record: made, file, jobs };
    },
  };
}
