// "Saved" and "Not saved" as an indexed question (schema.ts step 5): the keepable column a write gives a
// record is the one the migration gives the same record already in a folder, the filter answers alike on
// a migrated database and a fresh one, and its pages and totals read the keepable jobs' indexes.
import Database from 'libsql';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import type { JobFilter, JobSort } from '../../../electron/common/bridge/job-pages';
import { DATABASE_FILE, openRecordsDatabase } from '../../../electron/services/records/database';
import { filterSql, orderSql } from '../../../electron/services/records/job-filter-sql';
import { SqlJobQueries } from '../../../electron/services/records/job-queries';
import { MIGRATIONS } from '../../../electron/services/records/schema';
import { jobColumns } from '../../../electron/services/records/sqlite-ledger';
import { queriesWithCopies, recordSavedCopies } from './download-fixtures';
import { record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const NOW = 1_800_000_000_000;
const SORTS: JobSort[] = ['created', 'cost', 'kind', 'phase'];
/** Where jobColumns gives the keepable column (the columns of step 10 follow it). */
const KEEPABLE = 13;

type Purpose = JobRecord['purpose'];
const SCENE_VOICEOVER = { type: 'scene-voiceover', projectId: 'p1', sceneId: 's1', scriptHash: 'h' } as Purpose;
const ROW_VOICEOVER: Purpose = { type: 'campaign-row', campaignId: 'c1', row: 3, step: 'voiceover', take: 0 };
const ROW_VIDEO: Purpose = { type: 'campaign-row', campaignId: 'c1', row: 3, step: 'video', take: 0 };
const BATCH_ROW: Purpose = { type: 'batch-row', batchId: 'b1', row: 0 };

/** Every case of the question, several times over with varied kinds, costs and times; ids say what each is. */
function mix(): { job: JobRecord; keepable: boolean }[] {
  const cases: [string, Partial<JobRecord>, boolean][] = [
    ['done', { resultUrl: 'https://x.test/a.mp4' }, true],
    ['done-no-link', { resultUrl: null }, false],
    ['done-empty-link', { resultUrl: '' }, true],
    ['scene-voiceover', { resultUrl: 'https://x.test/v.mp3', purpose: SCENE_VOICEOVER }, false],
    ['row-voiceover', { resultUrl: 'https://x.test/r.mp3', purpose: ROW_VOICEOVER }, false],
    ['row-video', { resultUrl: 'https://x.test/r.mp4', purpose: ROW_VIDEO }, true],
    ['batch-row', { resultUrl: 'https://x.test/b.mp4', purpose: BATCH_ROW }, true],
    ['failed', { phase: 'failed', resultUrl: 'https://x.test/f.mp4', remoteId: 'r' }, false],
    ['queued', { phase: 'queued', resultUrl: null }, false],
    ['processing', { phase: 'processing', resultUrl: 'https://x.test/p.mp4' }, false],
  ];
  return Array.from({ length: 60 }, (_, i) => {
    const [name, over, keepable] = cases[i % cases.length]!;
    const job: JobRecord = {
      ...record(`job-${String(i).padStart(3, '0')}-${name}`, 'completed', NOW - (i % 17) * 60_000),
      kind: i % 3 === 0 ? 'avatar-video' : 'tts',
      projectId: i % 4 === 0 ? null : `project-${i % 2}`,
      chargedCredits: i % 5 === 0 ? null : (i % 7) + 1,
      costEstimate: { credits: i % 4, basis: 'b' },
      ...over,
    };
    return { job, keepable };
  });
}

/** A folder whose database is at the schema before step 5, holding `jobs` as that version wrote them. */
function folderBeforeKeepable(jobs: JobRecord[]): string {
  const dir = tempDir('studio-keepable-');
  const old = new Database(join(dir, DATABASE_FILE));
  for (const step of MIGRATIONS.slice(0, 4)) old.exec(step);
  old.exec('PRAGMA user_version = 4');
  const put = old.prepare(`INSERT INTO jobs
    (id, record, kind, phase, connection_id, project_id, created_at, finished_at, expires_at,
     remote_id, summary, run_id, purpose_type, cost_state, cost_credits)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const job of jobs) put.run(job.id, JSON.stringify(job), ...jobColumns(job).slice(0, KEEPABLE));
  old.close();
  return dir;
}

const ids = (page: { jobs: { id: string }[] }) => page.jobs.map((job) => job.id);

describe('the keepable column', () => {
  it('is written with each record as the migration fills it from the JSON', () => {
    const cases = mix();
    // Also a record of long ago with no purpose at all: nothing says it is a step, so it is kept.
    const bare = {
      ...record('job-bare', 'completed', NOW),
      resultUrl: 'https://x.test/bare.mp4',
    } as Partial<JobRecord>;
    delete bare.purpose;
    const jobs = [...cases.map((c) => c.job), bare as JobRecord];
    const expected = [...cases.map((c) => [c.job.id, c.keepable ? 1 : 0]), ['job-bare', 1]];
    // What a write gives each record.
    expect(jobs.map((job) => [job.id, jobColumns(job)[KEEPABLE]])).toEqual(expected);
    // What the migration gives the same records already in a folder.
    const database = openRecordsDatabase({ dataDir: folderBeforeKeepable(jobs) });
    try {
      const rows = database.db.prepare('SELECT id, keepable FROM jobs').raw().all() as [string, number][];
      const sorted = (list: unknown[][]) => [...list].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(sorted(rows)).toEqual(sorted(expected));
    } finally {
      database.close();
    }
  });

  it('answers "Saved" and "Not saved" on a migrated database as on one written today', () => {
    const cases = mix();
    const jobs = cases.map((c) => c.job);
    const keepable = cases.filter((c) => c.keepable).map((c) => c.job);
    // Some of the keepable saved, a step and a failed job "saved" too (ignored: never keepable), and an id of no job.
    const savedJobIds = [...keepable.filter((_, i) => i % 3 === 0).map((job) => job.id), jobs[4]!.id, jobs[7]!.id, 'x'];
    const known = { savedInDownloads: true };
    const saved = new Set(savedJobIds);
    const database = openRecordsDatabase({ dataDir: folderBeforeKeepable(jobs) });
    try {
      recordSavedCopies(database.db, savedJobIds);
      const migrated = new SqlJobQueries(database.db, () => NOW);
      const written = queriesWithCopies(jobs, savedJobIds, NOW);
      const filters: JobFilter[] = [{ saved: false }, { saved: true }, { saved: false, kinds: ['tts'] }];
      for (const filter of filters) {
        const kept = keepable.filter((job) => saved.has(job.id) === filter.saved && matchesKind(job, filter));
        const label = JSON.stringify(filter);
        expect(migrated.totals(filter, known, { groups: true }), label).toEqual(
          written.totals(filter, known, { groups: true }),
        );
        expect(migrated.totals(filter, known).count, label).toBe(kept.length);
        for (const sort of SORTS)
          for (const descending of [true, false]) {
            const query = { filter, sort, descending, limit: 100 };
            const page = ids(migrated.page(query, known));
            expect(page, `${label} ${sort}`).toEqual(ids(written.page(query, known)));
            expect([...page].sort(), `${label} ${sort}`).toEqual(kept.map((job) => job.id).sort());
          }
      }
      expect(keepable.length).toBeGreaterThan(20);
    } finally {
      database.close();
    }
  });

  it('reads a "Saved" or "Not saved" page in each order, and its totals, from the keepable jobs\' indexes', () => {
    const database = openRecordsDatabase({ dataDir: tempDir('studio-keepable-plan-') });
    try {
      const plan = (sql: string, params: unknown[]) =>
        (database.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
          .map((row) => row.detail)
          .join('\n');
      const known = { savedInDownloads: true };
      for (const saved of [false, true]) {
        const where = filterSql({ saved }, NOW, known);
        for (const sort of SORTS) {
          const order = orderSql(sort, true, null);
          const used = plan(`SELECT record FROM jobs ${where.sql} ${order.order} LIMIT 51`, where.params);
          // In the order's own index of keepable jobs, from the top: no sort of every match.
          expect(used, `${saved} ${sort}`).toContain(`USING INDEX jobs_keepable_${sort}`);
          expect(used, `${saved} ${sort}`).not.toContain('TEMP B-TREE FOR ORDER BY');
          // Each keepable job's copies found by its id, not by reading the downloads.
          expect(used, `${saved} ${sort}`).toContain('USING INDEX downloads_by_job (job_id=?)');
        }
        // The totals' query, as job-queries.ts asks it: an index alone, no row read.
        const asked: string[] = [];
        const spy = new SqlJobQueries(
          {
            prepare: (sql: string) => (asked.push(sql), database.db.prepare(sql)),
          } as unknown as ConstructorParameters<typeof SqlJobQueries>[0],
          () => NOW,
        );
        spy.totals({ saved }, known, { groups: true });
        expect(asked).toHaveLength(1);
        expect(plan(asked[0]!, where.params), `${saved}`).toContain('USING COVERING INDEX jobs_keepable_created');
      }
    } finally {
      database.close();
    }
  });
});

function matchesKind(job: JobRecord, filter: JobFilter): boolean {
  return !filter.kinds?.length || filter.kinds.includes(job.kind);
}
