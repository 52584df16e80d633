// A data folder as a studio before the records database left it: its job ledger a journal of finished
// jobs shaped like a campaign's (two voiceovers and one avatar video a row), one `{"put": job}` line each,
// as `jobs/ledger.jsonl` held them, and (unless asked not to) a saved copy of every finished video in the
// old download queue, as an editor who keeps each campaign's clips has them. The first start of today's
// studio takes both in.
import { once } from 'node:events';
import { createWriteStream, linkSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import type { DownloadEntry } from '../../electron/common/bridge/downloads';
import { queueFile } from '../../electron/services/downloads/queue-file';
import { JOURNAL } from '../../electron/services/jobs/ledger-read';

const DAY_MS = 86_400_000;
/** Rows of a campaign: a team's weekly 10,000-row send. */
const ROWS_PER_CAMPAIGN = 10_000;

/** The `index`th job of the folder: row index/3 of its campaign, its first or second voiceover, or its video. */
export function campaignJob(index: number, now: number, results = 'https://results.example.test'): JobRecord {
  const rowIndex = Math.floor(index / 3);
  const step = index % 3;
  const video = step === 2;
  const campaign = Math.floor(rowIndex / ROWS_PER_CAMPAIGN);
  // Spread over the last six days, newest last, so some links expire within a day.
  const createdAt = now - 6 * DAY_MS + index * 50;
  const failed = index % 37 === 0;
  return {
    id: `job-${index.toString(36).padStart(6, '0')}-${(index * 2654435761) % 100_000}`,
    kind: video ? 'avatar-video' : 'tts',
    phase: failed ? 'failed' : 'completed',
    remoteId: `remote-${index}`,
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    projectId: `project-${campaign % 5}`,
    summary: video
      ? `Avatar video · row ${rowIndex + 1}`
      : `Speech · "Hello customer ${rowIndex + 1}, scene ${step + 1}"`,
    requestHash: `hash-${index}`,
    request: video
      ? { avatar_id: 'SandboxBen', scenes: [{ audio_url: `https://example.test/audio/${index}.mp3` }] }
      : { voice_id: 'ava', input_text: `Hello customer ${rowIndex + 1}, welcome to scene ${step + 1}.` },
    createdAt,
    updatedAt: createdAt + 30_000,
    finishedAt: createdAt + 30_000,
    expiresAt: failed ? null : createdAt + 7 * DAY_MS,
    deadlineAt: createdAt + DAY_MS,
    remoteStatus: failed ? 4 : 3,
    resultUrl: failed ? null : `${results}/${index}.${video ? 'mp4' : 'mp3'}`,
    costEstimate: null,
    chargedCredits: failed ? 0 : video ? 10 : 1,
    error: failed
      ? { code: 4001, message: 'render failed', explanation: 'The service could not make it.', endpoint: null }
      : null,
    answer: null,
    polls: video ? 4 : 2,
    purpose: {
      type: 'campaign-row',
      campaignId: `campaign-${campaign}`,
      row: rowIndex % ROWS_PER_CAMPAIGN,
      step: video ? 'video' : 'voiceover',
      ...(video ? {} : { sceneId: `scene-${step + 1}` }),
      take: 0,
    },
    reactedAt: createdAt + 30_000,
  };
}

/**
 * A fresh data folder whose old journal holds `count` finished campaign jobs; answers the folder.
 * `results`: where their results are (a server that answers every path, for a download that must write).
 * `copies`: each finished video also has a saved copy on disk (hard links to one small file, so a million
 * jobs' copies cost the disk nothing) recorded in the old download queue.
 */
export async function folderWithJournal(
  count: number,
  now = Date.now(),
  results?: string,
  copies = false,
): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-records-${count}-`));
  mkdirSync(join(dataDir, 'jobs'));
  const out = createWriteStream(join(dataDir, 'jobs', JOURNAL));
  const saved: DownloadEntry[] = [];
  const folder = join(dataDir, 'Clips');
  // ext4 keeps at most 65,000 links to one file: a fresh source file serves each LINKS_A_FILE copies.
  const clipFor = (n: number): string => {
    const clip = join(dataDir, `clip-${Math.floor(n / LINKS_A_FILE)}.mp4`);
    if (n % LINKS_A_FILE === 0) writeFileSync(clip, CLIP_BYTES);
    return clip;
  };
  if (copies) mkdirSync(folder);
  for (let i = 0; i < count; i += 1) {
    const job = campaignJob(i, now, results);
    if (!out.write(`${JSON.stringify({ put: job })}\n`)) await once(out, 'drain');
    if (copies && job.kind === 'avatar-video' && job.phase === 'completed')
      saved.push(savedCopy(job, folder, clipFor(saved.length)));
  }
  out.end();
  await once(out, 'finish');
  if (copies) {
    mkdirSync(join(dataDir, 'downloads'));
    writeFileSync(queueFile(dataDir), JSON.stringify({ version: 1, entries: saved }));
  }
  return dataDir;
}

/** Copies linked to one source file, well under the file system's limit of links to a file. */
const LINKS_A_FILE = 50_000;

/** What each saved clip holds: a few bytes stand for a video (nothing reads them as one). */
const CLIP_BYTES = Buffer.from('not a video: a saved copy for the records bench\n');

/** A finished download of a job's result into `folder`, its file a hard link to `clip`. */
function savedCopy(job: JobRecord, folder: string, clip: string): DownloadEntry {
  const name = `${job.summary.replace(/[^A-Za-z0-9]+/g, '-')}-${job.id}.mp4`;
  const savedPath = join(folder, name);
  linkSync(clip, savedPath);
  const at = (job.finishedAt ?? job.createdAt) + 60_000;
  return {
    id: `copy-${job.id}`,
    jobId: job.id,
    url: job.resultUrl as string,
    folder,
    relativeName: name,
    requestedName: name,
    state: 'saved',
    reason: null,
    bytes: CLIP_BYTES.length,
    totalBytes: CLIP_BYTES.length,
    etag: null,
    lastModified: null,
    attempts: 1,
    savedPath,
    sha256: null,
    mtimeMs: null,
    verifiedAt: at,
    refetchedAt: null,
    origin: 'campaign',
    batchId: null,
    createdAt: at,
    updatedAt: at,
  };
}
