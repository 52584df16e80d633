// A page of a run's rows read from the database (issue 68, "nobody holds every job"): a batch's table and
// a campaign's grid ask for a window, all rows or those with a problem, and its counts. What the database
// answers is what the page cut from the whole run answers (batchRowsPage, campaignRowsPage), and only the
// window's rows are read: the other rows' JSON can be garbage and the page still comes back.
import Database from 'libsql';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { campaignRowsPage } from '../../../electron/common/bridge/campaign-pages';
import type { CampaignRowRecord } from '../../../electron/common/campaign/record';
import { Code } from '../../../electron/common/api/error-codes';
import { toJobView } from '../../../electron/services/jobs/job-view';
import { DATABASE_FILE, type Sqlite } from '../../../electron/services/records/database';
import { MIGRATIONS } from '../../../electron/services/records/schema';
import { openRecords } from '../../../electron/services/records/open-ledger';
import {
  CAMPAIGN_COUNTS,
  CAMPAIGN_PROBLEMS_WINDOW,
  CAMPAIGN_WINDOW,
  BATCH_COUNTS,
  BATCH_PROBLEMS_WINDOW,
  BATCH_WINDOW,
} from '../../../electron/services/records/run-row-pages';
import type { RunRowPages } from '../../../electron/services/rows/engine/run-store';
import { readCampaignRowsPage } from '../../../electron/services/campaign/campaign-rows-page';
import { batchRuns, type BatchRecord, type BatchRowRecord } from '../../../electron/services/voices/batch-record';
import { batchRowsPage, readBatchRowsPage } from '../../../electron/services/voices/batch-rows-page';
import { batchView } from '../../../electron/services/voices/batch-view';
import { createBatchesDomain } from '../../../electron/services/voices/batches-domain';
import { createCampaignPagesDomain } from '../../../electron/services/campaign/campaign-pages-domain';
import { record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);
const ROWS = 70;
const OWN: BatchRowRecord['state'][] = ['speech', 'done', 'failed', 'pending', 'speech', 'cancelled', 'invalid'];
const PHASES: JobRecord['phase'][] = ['completed', 'failed', 'queued', 'processing', 'submitting', 'outcome-unknown'];
const link = (batchId: string, row: number, n: number) => `https://cdn.example/${batchId}/${row}-${n}.mp3`;

/** A batch whose rows are in every state of their own, some on their second take, some held with a reason. */
function batch(id: string, extra: Partial<BatchRecord> = {}): BatchRecord {
  return {
    version: 1,
    id,
    label: `${id}.csv`,
    createdAt: NOW - 900_000,
    invalid: [4, 40],
    state: 'running',
    concurrency: 2,
    retry: [],
    template: '{row}',
    maxCredits: null,
    // Shuffled: the batch's order is its rows' places, not their numbers.
    rows: Array.from({ length: ROWS }, (_, at) => {
      const row = (at * 37) % ROWS;
      return {
        row,
        text: `line ${row}`,
        voiceId: 'v',
        rate: '100%',
        name: null,
        state: OWN[row % OWN.length] as BatchRowRecord['state'],
        take: row % 5 === 0 ? 1 : 0,
        problems: row % 11 === 3 ? ['the voice was busy'] : [],
      };
    }),
    ...extra,
  };
}

/** Jobs of every phase and take, some refused at their create (for credits, as too frequent, or else). */
function jobsOf(batchId: string): JobRecord[] {
  const jobs: JobRecord[] = [];
  const job = (row: number, n: number, phase: JobRecord['phase'], take: number): JobRecord => {
    const refused = phase === 'failed' && Math.floor(row / 6) % 2 === 0;
    const code = [Code.InsufficientCredit, 1104, Code.TooFrequent, 1001][Math.floor(row / 12) % 4] ?? null;
    return {
      ...record(`${batchId}-${row}-${n}`, phase, NOW - 700_000 + row * 1_000 + n * 100_000),
      remoteId: refused ? null : `r${row}-${n}`,
      resultUrl: phase === 'completed' ? link(batchId, row, n) : null,
      error: phase === 'failed' ? { code, explanation: `failed ${row}`, message: 'm', endpoint: null } : null,
      chargedCredits: phase === 'completed' ? 1.5 : null,
      purpose: { type: 'batch-row', batchId, row, ...(take > 0 ? { take } : {}) },
    } as JobRecord;
  };
  for (let row = 0; row < ROWS; row += 1) {
    if (row % 9 === 8) continue;
    jobs.push(job(row, 0, PHASES[(row + 3) % PHASES.length] as JobRecord['phase'], 0));
    jobs.push(job(row, 1, PHASES[row % PHASES.length] as JobRecord['phase'], 0));
    if (row % 2 === 0) jobs.push(job(row, 2, PHASES[(row + 1) % PHASES.length] as JobRecord['phase'], 1));
  }
  return jobs;
}

const campaignRow = (n: number): CampaignRowRecord => {
  const state = (['done', 'pending', 'failed', 'video', 'invalid', 'cancelled', 'done'] as const)[n % 7];
  return {
    row: n,
    values: { name: `n${n}` },
    fileName: `${n}.mp4`,
    state,
    problems: n % 4 === 1 ? ['held: the voice is longer than its scene'] : [],
    take: 0,
    voiceovers: {},
    resultUrl: state === 'done' ? `https://cdn.example/c/${n}.mp4` : null,
    expiresAt: null,
    savedAt: null,
  } as CampaignRowRecord;
};

async function folderWith(batches: readonly BatchRecord[], campaignRows: readonly CampaignRowRecord[] = []) {
  const records = openRecords(tempDir('run-pages-'));
  for (const b of batches) for (const job of jobsOf(b.id)) void records.ledger.put(job);
  await records.ledger.flush();
  const store = batchRuns(records.runs);
  for (const b of batches) await store.putRun(b);
  // The pages read only the campaign's rows and that it is there: its own fields are the grid's concern.
  const campaigns = records.runs.of('campaigns', (raw) => raw as { id: string; createdAt: number; rows: [] });
  await campaigns.putRun({ id: 'c', createdAt: NOW, rows: [...campaignRows] as never });
  await campaigns.flush();
  const pages = (await records.runs.pages()) as RunRowPages;
  const db = records.ledger.queryable() as Sqlite;
  const jobs = (id: string) => records.ledger.find({ runId: id }).map((r) => toJobView(r, NOW));
  return { db, pages, jobs, runs: records.runs };
}

/** Every window worth asking: the first page, one across the middle, the last, past the end, and one row. */
const WINDOWS = [
  { offset: 0, limit: 25 },
  { offset: 20, limit: 17 },
  { offset: 60, limit: 500 },
  { offset: 500, limit: 50 },
  { offset: 7, limit: 1 },
];

/** Sets every row's JSON outside `keep` to garbage: a question that read one would fail on it. */
function spoilOthers(db: Sqlite, kind: string, id: string, keep: readonly number[]): void {
  db.prepare(
    `UPDATE run_rows SET record = 'not json' WHERE kind = ? AND run_id = ? AND row NOT IN (SELECT value FROM json_each(?))`,
  ).run(kind, id, JSON.stringify(keep));
}

describe("a batch's page read from the database", () => {
  // Fails when a rule of batchRowHasProblem or batchView is left out of the SQL (a lost file of the take
  // being made again, a reason of the job or of the row, the refused-for-credits wait): the pages differ.
  it('answers every window, all rows or the problems, as the page cut from the whole batch does', async () => {
    const batches = [
      batch('here'),
      batch('queued', { queue: 'redis://q:6379' }),
      batch('gone', { state: 'cancelled' }),
    ];
    const { pages, jobs } = await folderWith(batches);
    for (const b of batches) {
      const view = batchView(b, jobs(b.id));
      // Lost: a made row's file now, and one of a row whose newer take is under way (its file is the older take's).
      const made = view.rows.filter((r) => r.resultUrl !== null);
      const lost = new Set([made[0]?.resultUrl, made[3]?.resultUrl, 'https://elsewhere/x.mp3'] as string[]);
      for (const filter of ['all', 'problems'] as const)
        for (const window of WINDOWS) {
          const query = { ...window, filter };
          const expected = batchRowsPage(view.rows, query, lost);
          expect(readBatchRowsPage(pages, b.id, query, lost, NOW), `${b.id} ${JSON.stringify(query)}`).toEqual(
            expected,
          );
        }
      const problems = batchRowsPage(view.rows, { offset: 0, limit: 500, filter: 'problems' }, lost);
      // The fixture reaches each kind of problem (an empty filter would agree with anything).
      expect(problems.total).toBeGreaterThan(10);
      expect(problems.total).toBeLessThan(ROWS);
    }
  });

  it('answers null for a batch it does not have, so the host reads it whole (or says there is none)', async () => {
    const { pages } = await folderWith([batch('b')]);
    expect(readBatchRowsPage(pages, 'nope', { offset: 0, limit: 10 }, new Set())).toBeNull();
  });

  // Fails when the page or its counts read the rows' JSON (mutation: the filter on json_extract(record),
  // the page cut in JS from every row): the spoiled rows would throw.
  it("reads only the window's rows, all or the problems", async () => {
    const b = batch('b');
    const { db, pages, jobs } = await folderWith([b]);
    const view = batchView(b, jobs(b.id));
    for (const filter of ['all', 'problems'] as const) {
      const query = { offset: 5, limit: 8, filter };
      const expected = batchRowsPage(view.rows, query, new Set());
      spoilOthers(
        db,
        'batches',
        'b',
        expected.rows.map((r) => r.row),
      );
      expect(readBatchRowsPage(pages, 'b', query, new Set(), NOW)).toEqual(expected);
      // Put back for the next filter.
      for (const row of b.rows)
        db.prepare('UPDATE run_rows SET record = ? WHERE kind = ? AND run_id = ? AND row = ?').run(
          JSON.stringify(row),
          'batches',
          'b',
          row.row,
        );
    }
  });

  // Fails when a question reads a job's record beyond those it names: the lost files' jobs found by the
  // run's index (every job of the run read for its link), or the window sorted instead of walked.
  it('walks the rows in their order from the index, with no sort, and the lost files by their links', async () => {
    const { db } = await folderWith([batch('b')]);
    const planOf = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail);
    const states = ['b', '[4]', 0, 0, '["https://cdn.example/x.mp3"]'];
    for (const plan of [
      planOf(BATCH_WINDOW, 'b', null, 10, 20),
      planOf(BATCH_COUNTS, ...states),
      planOf(BATCH_PROBLEMS_WINDOW, ...states, 10, 20),
    ]) {
      expect(plan.join(' | ')).toMatch(/USING COVERING INDEX run_rows_order \(kind=\? AND run_id=\?\)/);
      expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE FOR ORDER BY|SCAN r\b/);
      // The jobs' records read are looked up one by one (the few a state or a problem needs), never walked.
      const walked = plan.filter((step) => /\bjobs\b/.test(step) && !/COVERING INDEX|PRIMARY KEY/.test(step));
      expect(walked.filter((step) => !/USING INDEX jobs_by_result/.test(step))).toEqual([]);
    }
    expect(planOf(BATCH_COUNTS, ...states).join(' | ')).toMatch(/jobs_by_result/);
  });
});

describe("a campaign's page read from the database", () => {
  const rows = Array.from({ length: 90 }, (_, at) => campaignRow((at * 41) % 90));
  const charged = new Map(rows.filter((r) => r.state === 'done').map((r) => [r.row, 11]));

  it('answers every window, all rows or the problems, as the page cut from the whole campaign does', async () => {
    const { pages } = await folderWith([], rows);
    const done = rows.filter((r) => r.state === 'done');
    for (const lost of [new Set<string>(), new Set([done[0]?.resultUrl, done[5]?.resultUrl] as string[])])
      for (const only of ['all', 'problems'] as const)
        for (const window of WINDOWS) {
          const query = { ...window, only };
          const expected = campaignRowsPage({ rows, charged: Object.fromEntries(charged) }, query, lost);
          expect(readCampaignRowsPage(pages, 'c', query, lost, charged), JSON.stringify(query)).toEqual(expected);
        }
  });

  // Fails when the page or its counts read the rows' JSON: the spoiled rows would throw.
  it("reads only the window's rows, and counts from the index alone", async () => {
    const { db, pages } = await folderWith([], rows);
    const lost = new Set([rows.find((r) => r.state === 'done')?.resultUrl as string]);
    const query = { offset: 3, limit: 6, only: 'problems' as const };
    const expected = campaignRowsPage({ rows, charged: Object.fromEntries(charged) }, query, lost);
    expect(expected.lostDone).toBe(1);
    spoilOthers(
      db,
      'campaigns',
      'c',
      expected.rows.map((r) => r.row),
    );
    expect(readCampaignRowsPage(pages, 'c', query, lost, charged)).toEqual(expected);
    for (const [sql, params] of [
      [CAMPAIGN_COUNTS, ['c', '[]']],
      [CAMPAIGN_WINDOW, ['c', '[]', 10, 20]],
      [CAMPAIGN_PROBLEMS_WINDOW, ['c', '[]', 10, 20]],
    ] as const) {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
      const details = plan.map((p) => p.detail).join(' | ');
      expect(details).toMatch(/USING COVERING INDEX run_rows_order \(kind=\? AND run_id=\?\)/);
      expect(details).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe("the hosts' pages", () => {
  // Fails when a host's call cuts its page from the run read whole again (mutation: batches.rows or
  // campaigns.rows without the store's pages): the whole run is never given here.
  it('are read from the database, the ledger written first', async () => {
    const b = batch('b');
    const rows = Array.from({ length: 40 }, (_, n) => campaignRow(n));
    const { runs, jobs } = await folderWith([b], rows);
    let flushed = 0;
    const flush = async () => void (flushed += 1);
    const whole = () => {
      throw new Error('the run was read whole');
    };
    const lost = new Set([rows[0]?.resultUrl as string]);
    const batches = createBatchesDomain(
      { log: { info: () => undefined }, emit: () => undefined } as never,
      { batches: { get: whole, view: whole, pages: () => runs.pages() }, catalogue: {}, jobs: { flush } } as never,
      { pathOf: () => null },
      undefined,
      {},
      async () => lost,
    ).handlers;
    const query = { offset: 2, limit: 9, filter: 'problems' as const };
    const page = await batches['batches.rows']('b', query);
    expect(page.rows.map((r) => r.row)).toEqual(
      batchRowsPage(batchView(b, jobs('b')).rows, query, lost).rows.map((r) => r.row),
    );
    expect(flushed).toBe(1);

    const charged = new Map([[0, 11]]);
    const campaigns = createCampaignPagesDomain(
      { jobs: { flush }, queries: { runSums: () => ({ chargedByRow: charged }) } } as never,
      { get: whole, pages: () => runs.pages() },
      { lostLinks: async () => lost, ofLinks: async () => [] },
    ).handlers;
    const grid = await campaigns['campaigns.rows']('c', { offset: 0, limit: 10, only: 'all' });
    const expected = campaignRowsPage({ rows, charged: { '0': 11 } }, { offset: 0, limit: 10 }, lost);
    expect({ ...grid, copies: undefined }).toEqual({ ...expected, copies: undefined });
    expect(flushed).toBe(2);
  });
});

describe('the columns a page is read by', () => {
  // Fails when step 13 leaves the rows an older studio kept without them (mutation: no UPDATE in the step,
  // or a torn row's JSON failing the step), and when a reader beside such a folder asks them of it.
  it('are filled for the rows an older studio kept, and a reader beside it cuts the page from the whole run', async () => {
    const dir = tempDir('run-pages-old-');
    const old = new Database(join(dir, DATABASE_FILE));
    for (const step of MIGRATIONS.slice(0, 12)) old.exec(step);
    old.exec('PRAGMA user_version = 12');
    const rows = Array.from({ length: 30 }, (_, n) => campaignRow(n));
    old
      .prepare('INSERT INTO runs (kind, id, created_at, run) VALUES (?, ?, ?, ?)')
      .run('campaigns', 'c', 1, JSON.stringify({ id: 'c', createdAt: 1 }));
    const putRow = old.prepare(
      `INSERT INTO run_rows (kind, run_id, row, position, record, state, take) VALUES (?, ?, ?, ?, ?, ?, 0)`,
    );
    rows.forEach((row, position) => putRow.run('campaigns', 'c', row.row, position, JSON.stringify(row), row.state));
    putRow.run('campaigns', 'c', 30, 30, '{"row":30,"sta', null);
    old.close();

    expect(await openRecords(dir, { readOnly: true }).runs.pages()).toBeNull();
    const records = openRecords(dir);
    const pages = (await records.runs.pages()) as RunRowPages;
    const lost = new Set([rows[0]?.resultUrl as string]);
    const query = { offset: 0, limit: 500, only: 'problems' as const };
    const expected = campaignRowsPage({ rows, charged: {} }, query, lost);
    const found = pages.campaign('c', { offset: 0, limit: 500, problems: true, lost: [...lost] });
    expect(found.rows.map((text) => (JSON.parse(text) as CampaignRowRecord).row)).toEqual(
      expected.rows.map((r) => r.row),
    );
    expect([found.problems, found.lostDone]).toEqual([expected.problems, 1]);
  });
});
