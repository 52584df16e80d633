// A running campaign's status at the size of the brief's campaigns (issue 67): the command's progress line
// asks for it every 5 s (`campaigns.status`), and the pace in it once read every job of the run, one by
// one, into the studio's thread. Ledgers of 2,000, 20,000 and 100,000 rows (three jobs a row, most rows
// done, 64 under way) are timed both ways: each job's pace fields read and worked out in memory (the way
// before, kept here as the baseline), and the pace summed in the database (records/run-job-sums.ts);
// then all the status sums over its jobs, the run's figures included, and its share of the thread at one read each 5 s.
// BENCH_PACE_ROWS=2000,10000 runs other sizes.
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobRecord } from '../../electron/common/bridge/jobs';
import { campaignWork, campaignWorkFromSums, runWorkQuery } from '../../electron/common/campaign/campaign-work';
import type { CampaignRowRecord } from '../../electron/common/campaign/record';
import { SqlJobQueries } from '../../electron/services/records/job-queries';
import { openLedger } from '../../electron/services/records/open-ledger';
import { campaignWorkSums } from '../../electron/services/records/run-job-sums';
import type { SqliteLedgerStorage } from '../../electron/services/records/sqlite-ledger';
import { campaignRow } from '../unit/campaign/row-fixture';
import { loadTemplate } from '../unit/campaign/template-fixture';
import { record } from '../unit/records/ledger-fixtures';

const SIZES = (process.env.BENCH_PACE_ROWS ?? '2000,20000,100000').split(',').map(Number);
const NOW = Date.UTC(2026, 10, 29, 12);
const UNDER_WAY = 64;
const PENDING = 500;
/** How often the command's progress line asks (campaign.ts). */
const ASKED_EVERY_MS = 5_000;

/** The way before: every job's pace fields read from the run's index and worked out in memory. */
const EVERY_JOB = `SELECT purpose_row AS row, coalesce(purpose_take, 0) AS take, purpose_step AS step,
    coalesce(polls, 0) AS polls, created_at, finished_at, phase
  FROM jobs WHERE run_id = ? AND purpose_type = 'campaign-row'`;

interface Row {
  row: number;
  take: number;
  step: string;
  polls: number;
  created_at: number;
  finished_at: number | null;
  phase: JobRecord['phase'];
}

/** A run of `rows` rows: the first done (three jobs each, a few failed), PENDING to come, UNDER_WAY making their video. */
async function campaignLedger(rows: number) {
  const dir = mkdtempSync(join(tmpdir(), 'studio-bench-pace-'));
  const ledger = openLedger(dir) as SqliteLedgerStorage;
  const records: CampaignRowRecord[] = [];
  for (let r = 0; r < rows; r += 1) {
    const underWay = r >= rows - UNDER_WAY;
    const pending = !underWay && r >= rows - UNDER_WAY - PENDING;
    records.push(campaignRow(r, underWay ? 'video' : pending ? 'pending' : r % 50 === 0 ? 'failed' : 'done'));
    if (pending) continue;
    const at = NOW - (rows - r) * 150;
    for (const [i, step] of (['voiceover', 'voiceover', 'video'] as const).entries()) {
      const running = underWay && i === 2;
      const phase = running ? 'processing' : r % 50 === 0 && i === 1 ? 'failed' : 'completed';
      if (r % 50 === 0 && i === 2) continue;
      void ledger.put({
        ...record(`j${r}-${i}`, phase, at + i * 1_000),
        finishedAt: running ? null : at + i * 1_000 + 3_000,
        polls: 1 + (r % 3),
        purpose: { type: 'campaign-row', campaignId: 'c', row: r, step, take: 0 },
      } as JobRecord);
    }
  }
  await ledger.flush();
  const db = ledger.queryable();
  if (!db) throw new Error('no database');
  const run = { id: 'c', rows: records, target: 'avatar-video' as const, template: loadTemplate() };
  return { ledger, db, run, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The median of `n` calls' wall times (ms), after one to warm up. */
function median(call: () => unknown, n = 9): number {
  call();
  const times = Array.from({ length: n }, () => {
    const started = performance.now();
    call();
    return performance.now() - started;
  }).sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

export async function run(): Promise<void> {
  console.log(
    `A running campaign's status (${UNDER_WAY} rows under way, ${PENDING} to come, three jobs a row), each figure the median of 9 reads`,
  );
  console.log(
    'rows     jobs   pace: every job   summed   ratio    status sums   share of the thread at one read each 5 s',
  );
  for (const rows of SIZES) {
    const { ledger, db, run: campaign, remove } = await campaignLedger(rows);
    try {
      const everyJob = () => {
        const jobs = (db.prepare(EVERY_JOB).all('c') as Row[]).map((r) => ({
          purpose: { type: 'campaign-row' as const, campaignId: 'c', row: r.row, take: r.take, step: r.step },
          polls: r.polls,
          createdAt: r.created_at,
          finishedAt: r.finished_at,
          phase: r.phase,
        }));
        return campaignWork(campaign, jobs as never, NOW);
      };
      const summed = () => campaignWorkFromSums(campaign, campaignWorkSums(db, runWorkQuery(campaign, NOW)), NOW);
      if (JSON.stringify(everyJob()) !== JSON.stringify(summed()))
        throw new Error(`the two paces differ at ${rows} rows`);
      const queries = new SqlJobQueries(db, () => NOW);
      const before = median(everyJob);
      const after = median(summed);
      // What the status reads of its jobs: the run's figures (charges, steps at the service) and its pace.
      const status = median(() => [queries.runSums({ runId: 'c', purposeType: 'campaign-row' }), summed()]);
      const share = status / ASKED_EVERY_MS;
      const jobs = (db.prepare(`SELECT count(*) AS n FROM jobs`).get() as { n: number }).n;
      console.log(
        `${String(rows).padStart(6)} ${String(jobs).padStart(8)} ${before.toFixed(1).padStart(14)} ms ${after.toFixed(1).padStart(6)} ms ${(after / before).toFixed(2).padStart(6)} ${status.toFixed(1).padStart(11)} ms ${(100 * share).toFixed(2).padStart(8)}%`,
      );
    } finally {
      ledger.close();
      remove();
    }
  }
}
