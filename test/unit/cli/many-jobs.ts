// A data folder holding many finished jobs, written straight into its records database in large
// transactions (the engine's one-by-one durable writes would take minutes): for `jobs list` tests and
// for measuring by hand. Run as a script: `tsx test/unit/cli/many-jobs.ts DIR COUNT`.
import { pathToFileURL } from 'node:url';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { openRecordsDatabase } from '../../../electron/services/records/database';
import { jobColumns, PUT_JOB } from '../../../electron/services/records/sqlite-ledger';

const KINDS = ['tts', 'tts', 'avatar-video'] as const;
const DAY = 86_400_000;

/** The i-th job: a campaign row's two voiceovers and its video, as `jobs/ledger.jsonl` held them. */
export function manyJob(i: number, now: number): JobRecord {
  const kind = KINDS[i % KINDS.length]!;
  const createdAt = now - (i % 1000) * 60_000 - Math.floor(i / 1000);
  return {
    id: `job-${String(i).padStart(8, '0')}`,
    kind,
    phase: i % 50 === 0 ? 'failed' : 'completed',
    remoteId: `remote-${i}`,
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    projectId: i % 2 ? 'project-a' : 'project-b',
    summary: kind === 'tts' ? `TTS · voice Ada · "Row ${i} says hello to the customer…"` : `Avatar video · row ${i}`,
    requestHash: `h${i}`,
    request: { input_text: `Row ${i} says hello to the customer, with a line long enough to be a real script.` },
    createdAt,
    updatedAt: createdAt + 30_000,
    finishedAt: createdAt + 30_000,
    expiresAt: createdAt + 7 * DAY,
    deadlineAt: createdAt + DAY,
    remoteStatus: 3,
    resultUrl: `https://files.example/${i}.mp3`,
    costEstimate: { credits: kind === 'tts' ? 1 : 10, basis: 'published' },
    chargedCredits: i % 50 === 0 ? 0 : kind === 'tts' ? 1 : 10,
    chargeSource: 'service',
    error: null,
    answer: { status: 3, url: `https://files.example/${i}.mp3`, duration: 4.2 },
    purpose: { type: 'campaign-row', campaignId: 'campaign-1', row: Math.floor(i / 3), step: 'voiceover', take: 0 },
    reactedAt: createdAt + 31_000,
    polls: 3,
  };
}

/** Writes `count` jobs into `dataDir`'s records database (made if needed). */
export function seedJobs(dataDir: string, count: number, now = Date.now()): void {
  const database = openRecordsDatabase({ dataDir });
  try {
    const put = database.db.prepare(PUT_JOB);
    const write = database.db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i += 1) {
        const job = manyJob(i, now);
        put.run(job.id, JSON.stringify(job), ...jobColumns(job));
      }
    });
    for (let from = 0; from < count; from += 20_000) write(from, Math.min(count, from + 20_000));
  } finally {
    database.close();
  }
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  const [dir, count] = process.argv.slice(2);
  seedJobs(dir as string, Number(count));
}
