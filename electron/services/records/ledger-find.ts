import { JOB_KINDS } from '../../common/jobs/kinds';
import { RECENT_CHARGES } from '../../common/jobs/cost-model';
import type { JobScope } from '../jobs/job-scope';
import type { ChargeRow } from '../jobs/ledger';
import { keptStatement, type Sqlite } from './database';

/**
 * The conditions that name the partial indexes of schema.ts: a query uses such an index only when its
 * WHERE says the same, so both are written from these.
 */
export const UNREACTED_SQL = `phase IN ('completed', 'failed', 'outcome-unknown') AND json_extract(record, '$.reactedAt') IS NULL`;
export const REAL_CHARGE_SQL = `cost_state = 'charged' AND phase <> 'failed'`;
export const RESULT_SQL = `phase = 'completed'`;
export const RESULT_URL = `json_extract(record, '$.resultUrl')`;

const list = (values: readonly unknown[]) => `(${values.map(() => '?').join(', ')})`;

/** The scope as SQL over the jobs table (each condition on an indexed column, or on a partial index's own words). */
function where(scope: JobScope): { sql: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  const add = (sql: string, ...values: readonly (string | number)[]) => (parts.push(sql), params.push(...values));
  if (scope.runId !== undefined) add('run_id = ?', scope.runId);
  // No column of its own: read among the run's jobs, which the run's index finds.
  if (scope.row !== undefined) add(`json_extract(record, '$.purpose.row') = ?`, scope.row);
  if (scope.ids) add('id IN (SELECT value FROM json_each(?))', JSON.stringify(scope.ids));
  if (scope.remoteIds) add('remote_id IN (SELECT value FROM json_each(?))', JSON.stringify(scope.remoteIds));
  if (scope.kinds) add(`kind IN ${list(scope.kinds)}`, ...scope.kinds);
  // With a bound on the expiry, `+phase` and `+purpose_type` keep SQLite off the indexes that lead with
  // them (the phase index spares a sort; the cost sums' lead with the purpose): each reads every completed
  // or every campaign job, where the expiry index reads only the day's few. At 1,000,000 jobs the archive's
  // question took 0.9 s on the phase index and 0.83 s on a cost index; 2-5 ms on the expiry's.
  const expiry = scope.expiresAfter !== undefined || scope.expiresBefore !== undefined;
  const unindexed = expiry ? '+' : '';
  if (scope.phases) add(`${unindexed}phase IN ${list(scope.phases)}`, ...scope.phases);
  if (scope.purposeTypes) add(`${unindexed}purpose_type IN ${list(scope.purposeTypes)}`, ...scope.purposeTypes);
  if (scope.createdFrom !== undefined) add('created_at >= ?', scope.createdFrom);
  if (scope.expiresAfter !== undefined) add('(expires_at > ? OR expires_at IS NULL)', scope.expiresAfter);
  if (scope.expiresBefore !== undefined) add('expires_at <= ?', scope.expiresBefore);
  if (scope.resultUrl !== undefined) add(`${RESULT_SQL} AND ${RESULT_URL} = ?`, scope.resultUrl);
  if (scope.unreacted) add(UNREACTED_SQL);
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}

const indexNames = new WeakMap<Sqlite, Set<string>>();

/**
 * `INDEXED BY` the partial index when the database has it. Without statistics SQLite prefers an index
 * on the phase to one whose WHERE it must match, and the phase index reads every ended job's record;
 * a reader beside a folder an older version owns (no such index yet) is left to the planner.
 */
function via(db: Sqlite, index: string): string {
  let names = indexNames.get(db);
  if (!names) {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs'").all();
    names = new Set((rows as { name: string }[]).map((r) => r.name));
    indexNames.set(db, names);
  }
  return names.has(index) ? ` INDEXED BY ${index}` : '';
}

/** The partial index a scope is answered from, if it names one. */
function indexOf(scope: JobScope): string | null {
  if (scope.unreacted) return 'jobs_unreacted';
  if (scope.resultUrl !== undefined) return 'jobs_by_result';
  return null;
}

/** The records' JSON texts of the jobs in the scope, newest first. */
export function findJobTexts(db: Sqlite, scope: JobScope): { id: string; record: string }[] {
  const { sql, params } = where(scope);
  const limit = scope.newest === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(scope.newest))}`;
  const index = indexOf(scope);
  const from = `jobs${index ? via(db, index) : ''}`;
  const statement = keptStatement(
    db,
    `SELECT id, record FROM ${from} ${sql} ORDER BY created_at DESC, id DESC${limit}`,
  );
  return statement.all(...params) as { id: string; record: string }[];
}

interface ChargeColumns {
  id: string;
  connection_id: string | null;
  kind: string | null;
  created_at: number | null;
  phase: string | null;
  remote_id: string | null;
  cost_state: string | null;
  cost_credits: number | null;
}

const CHARGE_COLUMNS = 'id, connection_id, kind, created_at, phase, remote_id, cost_state, cost_credits';

/** The charge facts a job's columns carry (sqlite-ledger.ts costColumns wrote them from its record). */
function factsOf(row: ChargeColumns): ChargeRow {
  const credits = row.cost_credits;
  const charged = row.cost_state === 'charged' || row.cost_state === 'charged-estimate';
  return {
    id: row.id,
    connectionId: row.connection_id ?? '',
    kind: row.kind as ChargeRow['kind'],
    createdAt: row.created_at ?? 0,
    phase: row.phase as ChargeRow['phase'],
    remoteId: row.remote_id,
    chargedCredits: charged ? credits : null,
    chargeSource: row.cost_state === 'charged-estimate' ? 'estimate' : charged ? 'service' : null,
    costEstimate: row.cost_state === 'estimated' && credits !== null ? { credits, basis: '' } : null,
  };
}

/** Every connection named in the ledger, each found by one step of its index rather than a scan. */
function connectionIds(db: Sqlite): string[] {
  const rows = db
    .prepare(
      `WITH RECURSIVE c(id) AS (
         SELECT min(connection_id) FROM jobs
         UNION ALL
         SELECT (SELECT min(connection_id) FROM jobs WHERE connection_id > c.id) FROM c WHERE c.id IS NOT NULL)
       SELECT id FROM c WHERE id IS NOT NULL`,
    )
    .all() as { id: string }[];
  return rows.map((r) => r.id);
}

/** LedgerStorage.charges in SQL: the columns of the jobs since `from`, and each connection's latest real charges per kind. */
export function chargeRows(db: Sqlite, from: number): ChargeRow[] {
  const picked = new Map<string, ChargeRow>();
  const since = db.prepare(`SELECT ${CHARGE_COLUMNS} FROM jobs WHERE created_at >= ?`);
  for (const row of since.iterate(from)) picked.set((row as ChargeColumns).id, factsOf(row as ChargeColumns));
  const latest = db.prepare(
    `SELECT ${CHARGE_COLUMNS} FROM jobs${via(db, 'jobs_charges')} WHERE connection_id = ? AND kind = ? AND ${REAL_CHARGE_SQL}
     ORDER BY created_at DESC LIMIT ${RECENT_CHARGES}`,
  );
  for (const connection of connectionIds(db))
    for (const kind of JOB_KINDS)
      for (const row of latest.all(connection, kind) as ChargeColumns[]) picked.set(row.id, factsOf(row));
  return [...picked.values()];
}
