import type { JobScope } from '../jobs/job-scope';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import type { QueuedRun, RowMaker } from '../rows/queue/row-worker';
import { reportedJob, type RowReport } from '../rows/queue/run-shelf';
import { bucketLocation, type BucketCopy, type ResultBucket } from '../storage/result-bucket';
import type { JobRecord, JobView } from '../../common/bridge/jobs';
import type { CampaignRows } from './campaign-rows';

/**
 * The queued campaign as each of its rows' one-row runs starts from, checked once per run read: it carries
 * the whole template, and checking it again for each row was most of the schema work a row cost a worker.
 * Held by the run's object, so a run read again (after a pause) is checked again, and one let go of goes.
 */
const checkedRuns = new WeakMap<QueuedRun, RunFields>();
const RunFields = CampaignRecord.omit({ id: true, rows: true });
type RunFields = ReturnType<typeof RunFields.parse>;

function checkedRun(queued: QueuedRun, folder: string): RunFields {
  let checked = checkedRuns.get(queued);
  if (!checked) {
    checked = RunFields.parse({
      ...queued,
      outDir: join(folder, queued.id),
      state: 'running',
      pause: null,
      balance: undefined,
      queue: null,
      // The queued campaign's cap (its `partOf`'s): one count in the queue's budget, for every worker's rows.
      partOf: queued.id,
    });
    checkedRuns.set(queued, checked);
  }
  return checked;
}

type FileFacts = { path: string; bytes: number; sha256: string };
export type SavedAt = (path: string) => { bytes: number; sha256: string; mtimeMs: number } | null;

/**
 * The saved video's size and hash for the row's report. The download took its hash as it wrote it: read
 * from its record while the file is as written (size and time, the copies' own check), so a video the
 * worker only passes on is not read and hashed a second time (a real service's videos are megabytes).
 */
export async function fileFacts(path: string, savedAt?: SavedAt): Promise<FileFacts> {
  const info = await stat(path);
  const saved = savedAt?.(path);
  if (saved && saved.bytes === info.size && saved.mtimeMs === info.mtimeMs)
    return { path, bytes: saved.bytes, sha256: saved.sha256 };
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { path, bytes: info.size, sha256: hash.digest('hex') };
}

/**
 * The save's second half on a worker given a bucket: the saved file copied there under the campaign's id
 * and its name. A failed upload fails the row as its save would, its video kept: made again, the row is
 * saved from that video (retriedRow), never paid for again.
 */
async function copied(
  bucket: ResultBucket,
  campaignId: string,
  made: CampaignRowRecord,
  file: FileFacts,
): Promise<{ record: CampaignRowRecord; file: FileFacts & { bucket: BucketCopy | null } }> {
  try {
    const copy = await bucket.put(campaignId, made.fileName, file.path);
    return { record: { ...made, bucketCopy: bucketLocation(copy) }, file: { ...file, bucket: copy } };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const problem = `the video was made and saved on the worker, but ${reason}; retry the row to save it without paying again`;
    return {
      record: { ...made, state: 'failed', problems: [problem], savedAt: null, bucketCopy: null },
      file: { ...file, bucket: null },
    };
  }
}

/**
 * A worker's campaign rows: each is made as a campaign of one row on this worker's row engine (the same
 * steps as any campaign: voiceovers, the fitted video, the save), saved into `<folder>/<campaign id>`
 * (and, given a bucket, copied there), and let go of once made. Its id names the queued campaign, row
 * and take, so a worker that takes a row over writes the same intents as the one that began it, and
 * follows the jobs that one made.
 */
export function campaignRowMaker(
  campaigns: CampaignRows,
  folder: string,
  ledger: (match: (job: JobRecord) => boolean, scope: JobScope) => JobView[],
  bucket?: ResultBucket,
  /** The host's record of copies: the saved video's facts are read from it. */
  copies?: { savedAt?: SavedAt },
): RowMaker {
  return {
    kind: 'campaign',
    // Its pictures and mixes go to this worker's storage, for the service to fetch: the run's storage, or none.
    files: true,
    async make(queued, row, live) {
      const id = `${queued.id}-${row.row}-${row.take}`;
      // A row taken over comes as its take's job kept it (its voiceovers, its videos made): from pending,
      // its steps start at the first whose result it lacks, and a step under way finds its intent.
      // Whether it goes to a bucket is this worker's to say, not what an earlier worker of the row did.
      const record: CampaignRecord = {
        ...checkedRun(queued, folder),
        id: CampaignRecord.shape.id.parse(id),
        rows: [CampaignRowRecord.parse({ ...row, state: 'pending', bucketCopy: undefined })],
      };
      if (await campaigns.get(id)) await campaigns.replace(record);
      else await campaigns.create(record);
      // The row's jobs as its report carries them, named as the queued campaign's, for the studio that queued it to record.
      const rowJobs = () =>
        ledger((job) => job.purpose.type === 'campaign-row' && job.purpose.campaignId === id && reportedJob(job), {
          runId: id,
        }).map((job) => ({ ...job, purpose: { ...job.purpose, campaignId: queued.id } }));
      campaigns.guard(id, live.running, (now) => live.progress(now, rowJobs));
      const ended = await campaigns.run(id);
      let made = ended.rows[0] as CampaignRowRecord;
      let file: RowReport['file'] =
        made.state === 'done'
          ? await fileFacts(join(record.outDir, made.fileName), copies?.savedAt?.bind(copies))
          : null;
      if (file && bucket) ({ record: made, file } = await copied(bucket, queued.id, made, file));
      const jobs = rowJobs();
      // Paused by the account here (the whole run pauses for it), or by the run's own pause: the row waits with its steps' jobs.
      if (ended.state === 'paused') return { outcome: 'paused', record: made, pause: ended.pause ?? null, jobs };
      return { outcome: 'ended', record: made, file, jobs };
    },
    // Its report delivered, the row's one-row run and its ended jobs leave memory (the ledger keeps them;
    // its copy's download left the manager's once recorded). A paused row's record stays: its jobs at the
    // service still end into it, and the next take replaces it.
    async delivered(queued, row, report) {
      if (report.outcome === 'paused') return;
      await campaigns.forget(`${queued.id}-${row.row}-${row.take}`);
    },
  };
}
