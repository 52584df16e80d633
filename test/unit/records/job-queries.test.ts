// Pages, counts and sums of jobs computed by the folder's database: each order and filter answers what
// the same question asked of every job in memory answers, and a cursor pages without skipping or
// repeating a job while others arrive.
import Database from 'libsql';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOB_KINDS, JOB_PHASES, totalCost, type JobRecord } from '../../../electron/common/bridge/jobs';
import type { JobFilter, JobPageQuery } from '../../../electron/common/bridge/job-pages';
import { DATABASE_FILE, openRecordsDatabase } from '../../../electron/services/records/database';
import { SnapshotJobQueries, SqlJobQueries } from '../../../electron/services/records/job-queries';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { JOB_INDEXES, MIGRATIONS } from '../../../electron/services/records/schema';
import { jobColumns } from '../../../electron/services/records/sqlite-ledger';
import { putLine, record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;

/** A varied ledger: every kind and phase, costs charged, estimated, refused and unknown, projects, batches, campaigns. */
function varied(count: number): JobRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const phase = JOB_PHASES[i % JOB_PHASES.length]!;
    const base = record(`job-${String(i).padStart(4, '0')}`, phase, NOW - (i % 50) * HOUR);
    const purpose: JobRecord['purpose'] =
      i % 4 === 1
        ? { type: 'batch-row', batchId: `batch-${i % 3}`, row: i }
        : i % 4 === 2
          ? { type: 'campaign-row', campaignId: `campaign-${i % 2}`, row: i, step: 'video', take: 0 }
          : { type: 'plain' };
    return {
      ...base,
      kind: JOB_KINDS[Math.floor(i / JOB_PHASES.length) % JOB_KINDS.length]!,
      summary: i % 10 === 0 ? `Hello 100% world ${i}` : `Speech number ${i}`,
      remoteId: i % 6 === 0 ? null : `Remote-${i}`,
      projectId: i % 5 === 0 ? null : `project-${i % 3}`,
      connectionId: i % 2 ? 'sandbox' : 'live',
      chargedCredits: i % 3 === 0 ? (i % 7) + 0.5 : null,
      chargeSource: i % 9 === 0 ? 'estimate' : 'service',
      costEstimate: i % 4 === 0 ? null : { credits: i % 11, basis: 'b' },
      expiresAt: phase === 'completed' ? NOW + (i % 40) * HOUR - 5 * HOUR : null,
      polls: i % 5,
      purpose,
    };
  });
}

async function ledgerWith(records: JobRecord[]) {
  const dir = tempDir('studio-job-queries-');
  const ledger = openLedger(dir);
  for (const job of records) void ledger.put(job);
  await ledger.flush();
  const db = ledger.queryable();
  if (!db) throw new Error('the ledger has no database');
  return { dir, ledger, queries: new SqlJobQueries(db, () => NOW) };
}

/** The same questions asked of every job in memory, as the Library's filter did. */
function matches(job: JobRecord, filter: JobFilter): boolean {
  if (filter.kinds?.length && !filter.kinds.includes(job.kind)) return false;
  if (filter.phases?.length && !filter.phases.includes(job.phase)) return false;
  if (filter.projectId !== undefined && job.projectId !== filter.projectId) return false;
  const run = job.purpose.type === 'batch-row' ? job.purpose.batchId : null;
  const campaign = job.purpose.type === 'campaign-row' ? job.purpose.campaignId : null;
  if (filter.batchId !== undefined && run !== filter.batchId) return false;
  if (filter.campaignId !== undefined && campaign !== filter.campaignId) return false;
  if (filter.connectionId !== undefined && job.connectionId !== filter.connectionId) return false;
  if (filter.createdFrom !== undefined && job.createdAt < filter.createdFrom) return false;
  if (filter.createdBefore !== undefined && job.createdAt >= filter.createdBefore) return false;
  if (filter.expiringWithinMs !== undefined) {
    if (job.phase !== 'completed' || job.expiresAt === null) return false;
    if (job.expiresAt <= NOW || job.expiresAt > NOW + filter.expiringWithinMs) return false;
  }
  const start = filter.idStartsWith;
  if (start !== undefined && !job.id.startsWith(start) && !(job.remoteId ?? '').startsWith(start)) return false;
  const needle = filter.search?.trim().toLowerCase();
  if (needle)
    return (
      job.summary.toLowerCase().includes(needle) ||
      job.id.toLowerCase().startsWith(needle) ||
      (job.remoteId ?? '').toLowerCase().startsWith(needle)
    );
  return true;
}

const costOf = (job: JobRecord) =>
  job.chargedCredits ?? (job.phase === 'failed' && job.remoteId === null ? 0 : (job.costEstimate?.credits ?? -1));

function expectedOrder(records: JobRecord[], query: Omit<JobPageQuery, 'limit'>): string[] {
  const sortKey: Record<string, (job: JobRecord) => string | number> = {
    created: () => 0,
    kind: (job) => job.kind,
    phase: (job) => job.phase,
    cost: costOf,
  };
  const key = sortKey[query.sort ?? 'created']!;
  const compare = (a: JobRecord, b: JobRecord) => {
    const [ka, kb] = [key(a), key(b)];
    if (ka !== kb) return ka < kb ? -1 : 1;
    if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const sign = (query.descending ?? true) ? -1 : 1;
  return records
    .filter((job) => matches(job, query.filter ?? {}))
    .sort((a, b) => sign * compare(a, b))
    .map((job) => job.id);
}

/** Every page of a query, following its cursors. */
function allPages(
  queries: { page(q: JobPageQuery): { jobs: { id: string }[]; next: string | null } },
  query: JobPageQuery,
) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 1000; pages += 1) {
    const page = queries.page({ ...query, after });
    ids.push(...page.jobs.map((job) => job.id));
    if (page.next === null) return ids;
    after = page.next;
  }
  throw new Error('the pages never ended');
}

const FILTERS: JobFilter[] = [
  {},
  { kinds: ['tts', 'lipsync'] },
  { phases: ['completed'] },
  { phases: ['failed', 'outcome-unknown', 'stalled'] },
  { projectId: null },
  { projectId: 'project-1' },
  { batchId: 'batch-1' },
  { campaignId: 'campaign-0' },
  { connectionId: 'live' },
  { createdFrom: NOW - 10 * HOUR, createdBefore: NOW - 2 * HOUR },
  { expiringWithinMs: 24 * HOUR },
  { search: '100%' },
  { search: 'remote-1' },
  { search: 'job-001' },
  { search: '  hello ' },
  { idStartsWith: 'job-01' },
  // As written: "Remote-1…", not "remote-1…".
  { idStartsWith: 'Remote-1' },
  { kinds: ['tts'], phases: ['completed', 'queued'], projectId: 'project-2', search: 'speech' },
];

describe('job queries on the records database', () => {
  it('sorts every way and filters by every field as the same question over every job does', async () => {
    const records = varied(420);
    const { queries } = await ledgerWith(records);
    for (const filter of FILTERS)
      for (const sort of ['created', 'kind', 'phase', 'cost'] as const)
        for (const descending of [true, false]) {
          const query = { filter, sort, descending };
          const expected = expectedOrder(records, query);
          const label = JSON.stringify(query);
          expect(allPages(queries, { ...query, limit: 37 }), label).toEqual(expected);
          expect(
            [...queries.each(query)].map((job) => job.id),
            label,
          ).toEqual(expected);
        }
  });

  it('counts by phase and kind and sums the costs as totalCost does', async () => {
    const records = varied(300);
    const { queries } = await ledgerWith(records);
    for (const filter of FILTERS) {
      const kept = records.filter((job) => matches(job, filter));
      const totals = queries.totals(filter);
      const label = JSON.stringify(filter);
      // Each filter narrows this ledger to some of it: an answer of none or all would prove little.
      if (Object.keys(filter).length > 0) expect(kept.length, label).toBeGreaterThan(0);
      if (Object.keys(filter).length > 0) expect(kept.length, label).toBeLessThan(records.length);
      expect(totals.count, label).toBe(kept.length);
      const count = (key: (job: JobRecord) => string) =>
        Object.fromEntries(
          [...new Set(kept.map(key))].map((value) => [value, kept.filter((job) => key(job) === value).length]),
        );
      expect(totals.byPhase, label).toEqual(count((job) => job.phase));
      expect(totals.byKind, label).toEqual(count((job) => job.kind));
      const expected = totalCost(kept);
      expect(totals.cost.unknown, label).toBe(expected.unknown);
      for (const field of ['charged', 'chargedByEstimate', 'estimated'] as const)
        expect(totals.cost[field], `${label} ${field}`).toBeCloseTo(expected[field], 6);
    }
  });

  it('pages by offset, and by cursor without skipping or repeating a job while others arrive and change', async () => {
    const records = varied(200);
    const { ledger, queries } = await ledgerWith(records);
    const order = expectedOrder(records, {});
    expect(queries.page({ limit: 10, offset: 95 }).jobs.map((job) => job.id)).toEqual(order.slice(95, 105));
    expect(queries.page({ limit: 10, offset: 195 }).next).toBeNull();

    const seen: string[] = [];
    let page = queries.page({ limit: 25 });
    for (let n = 0; ; n += 1) {
      seen.push(...page.jobs.map((job) => job.id));
      if (page.next === null) break;
      // Between pages: a new job (newest of all), and a job already shown moves on (its row rewritten).
      await ledger.put({ ...record(`new-${n}`, 'queued', NOW + 1 + n), kind: 'tts' });
      const moved = records[n * 7]!;
      await ledger.put({ ...moved, phase: 'completed', polls: moved.polls + 1 });
      page = queries.page({ limit: 25, after: page.next });
    }
    expect(seen).toEqual(order);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("refuses another order's cursor or one it never wrote", async () => {
    const { queries } = await ledgerWith(varied(30));
    const next = queries.page({ limit: 5, sort: 'kind' }).next!;
    expect(() => queries.page({ limit: 5, sort: 'phase', after: next })).toThrow(/not one of this order/);
    expect(() => queries.page({ limit: 5, after: 'bm90IG91cnM' })).toThrow(/not one of this order/);
  });

  it('answers the same from a copy of records in memory (a ledger not wholly in a database)', async () => {
    const records = varied(120);
    const { queries } = await ledgerWith(records);
    const snapshot = new SnapshotJobQueries(
      () => records,
      () => NOW,
    );
    for (const filter of FILTERS) {
      expect(snapshot.totals(filter)).toEqual(queries.totals(filter));
      expect(allPages(snapshot, { filter, sort: 'cost', limit: 50 })).toEqual(
        allPages(queries, { filter, sort: 'cost', limit: 50 }),
      );
    }
  });

  it('takes a database of the first schema, its jobs in place, to pages and totals', () => {
    const dir = tempDir('studio-job-queries-v1-');
    const old = new Database(join(dir, DATABASE_FILE));
    old.exec(MIGRATIONS[0]!);
    old.exec('PRAGMA user_version = 1');
    // The first schema's row: the record and its first seven columns.
    const put = old.prepare(`INSERT INTO jobs
      (id, record, kind, phase, connection_id, project_id, created_at, finished_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const records = varied(300);
    for (const job of records) put.run(job.id, JSON.stringify(job), ...jobColumns(job).slice(0, 7));
    old.close();
    const database = openRecordsDatabase({ dataDir: dir });
    try {
      // The migration fills the new columns from the JSON as a write fills them from the record.
      const migrated = new SqlJobQueries(database.db, () => NOW);
      const written = new SnapshotJobQueries(
        () => records,
        () => NOW,
      );
      for (const filter of FILTERS)
        expect(migrated.totals(filter), JSON.stringify(filter)).toEqual(written.totals(filter));
      for (const sort of ['created', 'cost'] as const)
        expect(allPages(migrated, { sort, limit: 7 })).toEqual(expectedOrder(records, { sort }));
      const columns =
        'remote_id, summary, run_id, purpose_type, cost_state, cost_credits, keepable, purpose_row, purpose_step, purpose_take, polls';
      const migratedRows = database.db.prepare(`SELECT id, ${columns} FROM jobs ORDER BY id`).raw().all();
      expect(migratedRows).toEqual(
        [...records].sort((a, b) => (a.id < b.id ? -1 : 1)).map((job) => [job.id, ...jobColumns(job).slice(7)]),
      );
    } finally {
      database.close();
    }
  });

  // Fails when the sums per project or batch sort every job into a temporary tree (a second and more of
  // the host's thread at a million jobs) instead of reading their indexes in the order they group by.
  it("sums every job's projects and batches from their own indexes, in their order", async () => {
    const { ledger } = await ledgerWith(varied(60));
    const db = ledger.queryable()!;
    const plans: string[] = [];
    const original = db.prepare.bind(db);
    Object.assign(db, {
      prepare: (sql: string) => {
        if (/GROUP BY (project_id|run_id)\b/.test(sql))
          plans.push(
            (original(`EXPLAIN QUERY PLAN ${sql}`).all(...sampleParams(sql)) as { detail: string }[])
              .map((r) => r.detail)
              .join('; '),
          );
        return original(sql);
      },
    });
    const totals = new SqlJobQueries(db, () => NOW).totals({}, {}, { groups: true });
    expect(totals.projects?.map((p) => p.id)).toEqual(['project-0', 'project-1', 'project-2']);
    expect(totals.batches?.map((b) => b.id).sort()).toEqual(['batch-0', 'batch-1', 'batch-2']);
    expect(plans).toHaveLength(2);
    expect(plans[0]).toContain('COVERING INDEX jobs_project_cost');
    expect(plans[1]).toContain('COVERING INDEX jobs_batch_cost (purpose_type=?');
    expect(plans.join('\n')).not.toContain('TEMP B-TREE');
    ledger.close();
  });

  it("has the indexes the import builds again after writing without them: the schema's, every one", async () => {
    const indexesOf = (db: { prepare(sql: string): { all(): unknown[] } }) =>
      Object.fromEntries(
        (
          db
            .prepare(
              "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs' AND sql IS NOT NULL",
            )
            .all() as { name: string; sql: string }[]
        ).map(({ name, sql }) => [name, sql.replace(/\s+/g, ' ').replace(/^CREATE INDEX \w+ ON jobs /, '')]),
      );
    const fresh = openRecordsDatabase({ dataDir: tempDir('studio-job-indexes-') });
    expect(indexesOf(fresh.db)).toEqual(JOB_INDEXES);
    fresh.close();

    // The first start after the update takes an old journal into the empty table.
    const dir = tempDir('studio-job-indexes-import-');
    mkdirSync(join(dir, 'jobs'));
    const records = varied(90);
    writeFileSync(join(dir, 'jobs', 'ledger.jsonl'), records.map((job) => `${putLine(job)}\n`).join(''));
    const ledger = openLedger(dir);
    const db = ledger.queryable()!;
    expect(indexesOf(db)).toEqual(JOB_INDEXES);
    expect(allPages(new SqlJobQueries(db, () => NOW), { sort: 'kind', limit: 13 })).toEqual(
      expectedOrder(records, { sort: 'kind' }),
    );
    ledger.close();
  });
});

/** Stand-in values for a statement's `?`s (any value does): EXPLAIN QUERY PLAN needs them bound to answer. */
function sampleParams(sql: string): (string | number)[] {
  return [...sql.matchAll(/\?/g)].map(() => 'x');
}
