import Database from 'libsql';
import type {
  JobFilter,
  JobPageQuery,
  JobSelection,
  JobSort,
  JobTotals,
  TotalsOptions,
} from '../../common/bridge/job-pages';
import { JobRecord, type JobPage, type JobView } from '../../common/bridge/jobs';
import { toJobView } from '../jobs/job-view';
import { userVersion, type Sqlite } from './database';
import {
  decodeCursor,
  encodeCursor,
  filterSql,
  orderSql,
  SORT_COLUMNS,
  type CursorKey,
  type KnownCopies,
} from './job-filter-sql';
import { costGroups, sumTotals, type CostGroupRow, type TotalsRow } from './job-cost-groups';
import { MIGRATIONS, RUN_ROW_COLUMNS } from './schema';
import { campaignWorkSums, runJobSums, RUNS_EXPIRING } from './run-job-sums';
import { batchRowCounts } from './batch-row-counts';
import type { RunWorkQuery, RunWorkSums } from '../../common/campaign/campaign-work';
import type { BatchRowsQuery, RunJobSums, RunJobSumsQuery, RunSumsReader } from '../jobs/run-sums';
import type { LedgerStorage } from '../jobs/ledger';
import { jobColumns, PUT_JOB, SqliteLedgerStorage } from './sqlite-ledger';

/** Pages, counts and sums of a ledger's jobs, computed where they are kept rather than over every job in memory. */
export interface JobQueries extends RunSumsReader {
  page(query: JobPageQuery, known?: KnownCopies): JobPage;
  totals(filter: JobFilter, known?: KnownCopies, options?: TotalsOptions): JobTotals;
  /** The ids a selection names, in its order, at most `limit` (reads the ids alone, not the records). */
  ids(selection: JobSelection, limit: number, known?: KnownCopies): string[];
  /**
   * The ids of a selection a page at a time, in its order: `limit` rows read after the cursor `after`
   * (null: from the first), those left out dropped, and the cursor of the next page (null: none). Each
   * page is one short statement, so a walk of a million jobs can give the thread back between pages.
   */
  idPage(selection: JobSelection, after: string | null, limit: number, known?: KnownCopies): IdPage;
}

export interface IdPage {
  ids: string[];
  next: string | null;
}

/** What streaming every matching job takes: a page query without its paging. */
export type JobStreamQuery = Pick<JobPageQuery, 'filter' | 'sort' | 'descending'> & { limit?: number };

interface Row {
  record: string;
  created_at: number;
  id: string;
  sort_key: string | number | null;
}

/** The jobs table's queries over one connection (the owner's, or a reader's beside it). */
export class SqlJobQueries implements JobQueries {
  constructor(
    private readonly db: Sqlite,
    private readonly now: () => number = Date.now,
  ) {}

  runSums(query: RunJobSumsQuery): RunJobSums {
    return runJobSums(this.db, query);
  }

  campaignWork(query: RunWorkQuery): RunWorkSums {
    return campaignWorkSums(this.db, query);
  }

  runsExpiring(purposeType: string, from: number, to: number): string[] {
    const found = this.db.prepare(RUNS_EXPIRING).raw().all(from, to, purposeType) as [string][];
    return found.map(([id]) => id);
  }

  // A reader beside a folder an older studio last opened has no columns to count the rows by.
  batchRows(query: BatchRowsQuery): Record<string, number> | null {
    return userVersion(this.db) < RUN_ROW_COLUMNS ? null : batchRowCounts(this.db, query);
  }

  page(query: JobPageQuery, known: KnownCopies = {}): JobPage {
    const sort = query.sort ?? 'created';
    const after = query.after === undefined ? null : decodeCursor(query.after, sort);
    const { statement, params } = this.select(query, after, known);
    // One row past the page says whether another page follows, without counting them all.
    const rows = statement.all(...params, query.limit + 1, query.offset ?? 0) as Row[];
    const shown = rows.slice(0, query.limit);
    const now = this.now();
    const last = shown.at(-1);
    return {
      jobs: shown.flatMap((row) => viewOf(row.record, now)),
      next: rows.length > query.limit && last ? encodeCursor(sort, keyOf(sort, last)) : null,
    };
  }

  /**
   * Every matching job, a row at a time from SQLite's cursor: what is held is the row in hand, however
   * many there are (`studio jobs list --json`). The read holds one snapshot of the database to its end.
   */
  *each(query: JobStreamQuery): Generator<JobView> {
    const { statement, params } = this.select(query, null);
    const now = this.now();
    // LIMIT -1: SQLite's "no limit".
    for (const row of statement.iterate(...params, query.limit ?? -1, 0) as Iterable<Row>)
      yield* viewOf(row.record, now);
  }

  ids(selection: JobSelection, limit: number, known: KnownCopies = {}): string[] {
    const except = new Set(selection.except ?? []);
    const { statement, params } = this.select(selection, null, known, 'id');
    const ids: string[] = [];
    // A row at a time from SQLite's cursor, stopping at the limit: the ids left out are skipped as they pass.
    for (const [id] of statement.raw().iterate(...params, -1, 0) as Iterable<[string]>) {
      if (except.has(id)) continue;
      if (ids.length === limit) break;
      ids.push(id);
    }
    return ids;
  }

  idPage(selection: JobSelection, after: string | null, limit: number, known: KnownCopies = {}): IdPage {
    const sort = selection.sort ?? 'created';
    const except = new Set(selection.except ?? []);
    const { statement, params } = this.select(
      selection,
      after === null ? null : decodeCursor(after, sort),
      known,
      'key',
    );
    const rows = statement.all(...params, limit, 0) as Omit<Row, 'record'>[];
    const last = rows.at(-1);
    return {
      ids: rows.filter((row) => !except.has(row.id)).map((row) => row.id),
      next: rows.length === limit && last ? encodeCursor(sort, keyOf(sort, last)) : null,
    };
  }

  totals(filter: JobFilter, known: KnownCopies = {}, { groups = false }: TotalsOptions = {}): JobTotals {
    const where = filterSql(filter, this.now(), known);
    // The search (it reads each row) and "Saved" / "Not saved" take every sum in one pass, the latter
    // over the keepable jobs' index, which carries every column summed (schema.ts step 5): left to
    // itself SQLite would take jobs_totals and look every job's row up. Other filters group on indexed
    // columns alone: jobs_totals's, and the project and run indexes.
    if (filter.saved !== undefined || filter.search?.trim()) {
      const from = filter.saved === undefined ? 'jobs' : 'jobs INDEXED BY jobs_keepable_created';
      const rows = this.db
        .prepare(
          `SELECT phase, kind, cost_state, count(*), total(cost_credits), project_id,
             CASE WHEN purpose_type = 'batch-row' THEN run_id END, min(created_at) FROM ${from} ${where.sql}
           GROUP BY 1, 2, 3, 6, 7`,
        )
        .raw()
        .all(...where.params) as TotalsRow[];
      return sumTotals(rows, groups);
    }
    const rows = this.db
      .prepare(
        `SELECT phase, kind, cost_state, count(*) AS n, total(cost_credits) AS credits FROM jobs ${where.sql}
         GROUP BY phase, kind, cost_state`,
      )
      .raw()
      .all(...where.params) as TotalsRow[];
    const group = (column: string, extra: string) => {
      const rows = this.db
        .prepare(
          `SELECT ${column}, cost_state, count(*), total(cost_credits), min(created_at) FROM jobs
           ${where.sql ? `${where.sql} AND` : 'WHERE'} ${column} IS NOT NULL ${extra}
           GROUP BY ${column}, cost_state`,
        )
        .raw()
        .all(...where.params) as CostGroupRow[];
      return costGroups(rows);
    };
    const totals = sumTotals(rows, false);
    if (!groups) return totals;
    return {
      ...totals,
      projects: group('project_id', ''),
      batches: group('run_id', "AND purpose_type = 'batch-row'"),
    };
  }

  private select(query: JobStreamQuery, after: CursorKey | null, known: KnownCopies = {}, columns?: 'id' | 'key') {
    const sort: JobSort = query.sort ?? 'created';
    const where = filterSql(query.filter, this.now(), known);
    const order = orderSql(sort, query.descending ?? true, after);
    const conditions = [
      where.sql,
      order.where.sql && (where.sql ? `AND ${order.where.sql}` : `WHERE ${order.where.sql}`),
    ];
    const column = SORT_COLUMNS[sort] ?? 'NULL';
    const statement = this.db.prepare(
      `SELECT ${columns === 'id' ? 'id' : `${columns === 'key' ? '' : 'record, '}created_at, id, ${column} AS sort_key`} FROM jobs ${conditions.join(' ')} ${order.order} LIMIT ? OFFSET ?`,
    );
    return { statement, params: [...where.params, ...order.where.params] };
  }
}

function keyOf(sort: JobSort, row: Omit<Row, 'record'>): CursorKey {
  return SORT_COLUMNS[sort] === null ? [row.created_at, row.id] : [row.sort_key ?? '', row.created_at, row.id];
}

/**
 * A row's record as the page sees it; none for one this version cannot read (its owner sets such a
 * record aside, with a notice, when it next loads the ledger).
 */
function viewOf(text: string, now: number): JobView[] {
  try {
    const parsed = JobRecord.safeParse(JSON.parse(text));
    return parsed.success ? [toJobView(parsed.data, now)] : [];
  } catch {
    return [];
  }
}

/**
 * The same queries over records held in memory, copied into an in-memory database when they change:
 * for a ledger that is not (yet) wholly in a database, a reader beside an old journal not taken in or
 * a test's memory ledger. The answers are the database's, so every host pages alike.
 */
export class SnapshotJobQueries implements JobQueries {
  private snapshot: { db: Sqlite; queries: SqlJobQueries } | null = null;

  constructor(
    private readonly records: () => Iterable<JobRecord>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The records changed: the next question copies them again. */
  invalidate(): void {
    this.snapshot?.db.close();
    this.snapshot = null;
  }

  // Which copies are saved is never known to a snapshot: its database holds no downloads (KnownCopies).
  page(query: JobPageQuery, _known?: KnownCopies): JobPage {
    return this.current().page(query);
  }

  totals(filter: JobFilter, _known?: KnownCopies, options?: TotalsOptions): JobTotals {
    return this.current().totals(filter, {}, options);
  }

  ids(selection: JobSelection, limit: number, _known?: KnownCopies): string[] {
    return this.current().ids(selection, limit);
  }

  idPage(selection: JobSelection, after: string | null, limit: number, _known?: KnownCopies): IdPage {
    return this.current().idPage(selection, after, limit);
  }

  runSums(query: RunJobSumsQuery): RunJobSums {
    return this.current().runSums(query);
  }

  campaignWork(query: RunWorkQuery): RunWorkSums {
    return this.current().campaignWork(query);
  }

  runsExpiring(purposeType: string, from: number, to: number): string[] {
    return this.current().runsExpiring(purposeType, from, to);
  }

  // The snapshot holds the jobs alone, not the batches' rows.
  batchRows(): null {
    return null;
  }

  private current(): SqlJobQueries {
    if (this.snapshot) return this.snapshot.queries;
    const db = new Database(':memory:');
    for (const step of MIGRATIONS) db.exec(step);
    const put = db.prepare(PUT_JOB);
    db.transaction(() => {
      for (const record of this.records()) put.run(record.id, JSON.stringify(record), ...jobColumns(record));
    })();
    this.snapshot = { db, queries: new SqlJobQueries(db, this.now) };
    return this.snapshot.queries;
  }
}

/**
 * The queries of an engine's ledger: SQL on its database when that holds the whole ledger, else over a
 * snapshot of the engine's records (`invalidate` when they change).
 */
export function ledgerQueries(
  storage: LedgerStorage,
  records: () => Iterable<JobRecord>,
  now: () => number = Date.now,
): JobQueries & { invalidate(): void } {
  const snapshot = new SnapshotJobQueries(records, now);
  const current = (): JobQueries => {
    const db = storage instanceof SqliteLedgerStorage ? storage.queryable() : null;
    return db ? new SqlJobQueries(db, now) : snapshot;
  };
  return {
    page: (query, known) => current().page(query, known),
    totals: (filter, known, options) => current().totals(filter, known, options),
    ids: (selection, limit, known) => current().ids(selection, limit, known),
    idPage: (selection, after, limit, known) => current().idPage(selection, after, limit, known),
    runSums: (query) => current().runSums(query),
    campaignWork: (query) => current().campaignWork(query),
    batchRows: (query) => current().batchRows(query),
    runsExpiring: (purposeType, from, to) => current().runsExpiring(purposeType, from, to),
    invalidate: () => snapshot.invalidate(),
  };
}
