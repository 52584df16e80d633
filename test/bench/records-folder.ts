// A data folder as a studio before the records database left it: its job ledger a journal of finished
// jobs shaped like a campaign's (two voiceovers and one avatar video a row), one `{"put": job}` line each,
// as `jobs/ledger.jsonl` held them. The first start of today's studio takes it in.
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobRecord } from '../../electron/common/bridge/jobs';
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
 */
export async function folderWithJournal(count: number, now = Date.now(), results?: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-records-${count}-`));
  mkdirSync(join(dataDir, 'jobs'));
  const out = createWriteStream(join(dataDir, 'jobs', JOURNAL));
  for (let i = 0; i < count; i += 1) {
    if (!out.write(`${JSON.stringify({ put: campaignJob(i, now, results) })}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return dataDir;
}
