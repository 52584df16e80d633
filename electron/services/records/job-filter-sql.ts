import type { JobFilter, JobSort } from '../../common/bridge/job-pages';
import { StudioError } from '../host/errors';

/** A WHERE clause's text and its parameters, in order. */
export interface SqlPart {
  sql: string;
  params: (string | number)[];
}

/** One bound parameter (`?`) per value, for an `IN (…)` list or a row comparison. */
const boundParams = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** `%` and `_` in what the user typed are letters, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Whether "Saved" and "Not saved" may be answered here: the jobs' database also holds the studio's
 * download queue (records/sqlite-downloads.ts), and its owner has written what it knows of the copies
 * on disk (a saved entry is one checked against the disk). Not so for a snapshot of records in memory.
 */
export interface KnownCopies {
  savedInDownloads?: boolean;
}

/** A job with a saved copy of its own in the studio's queue (downloads_by_job finds its downloads). */
const SAVED_COPY = `EXISTS (SELECT 1 FROM downloads
  WHERE downloads.job_id = jobs.id AND downloads.queue = 'studio' AND downloads.state = 'saved')`;

/**
 * A completed job with a result of its own to keep: its link, and not a step of another job (a campaign
 * row's voiceover, a scene's voiceover: stepOf in common/jobs/steps.ts), which nobody is asked to save.
 * A column written with each record (schema.ts step 5), in this very form so that SQLite may read the
 * keepable jobs' own indexes (partial: they hold those jobs alone) rather than every job's record.
 */
const KEEPABLE = 'keepable = 1';

/**
 * The filter as SQL over the jobs table's columns (schema.ts). Every condition but the search can use an
 * index; the search reads the rows the others leave (summary anywhere, ids from their start).
 */
export function filterSql(filter: JobFilter = {}, now: number, known: KnownCopies = {}): SqlPart {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  const add = (sql: string, ...values: (string | number)[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (filter.kinds?.length) add(`kind IN (${boundParams(filter.kinds)})`, ...filter.kinds);
  if (filter.phases?.length) add(`phase IN (${boundParams(filter.phases)})`, ...filter.phases);
  if (filter.projectId === null) add('project_id IS NULL');
  else if (filter.projectId !== undefined) add('project_id = ?', filter.projectId);
  if (filter.batchId !== undefined) add("run_id = ? AND purpose_type = 'batch-row'", filter.batchId);
  if (filter.campaignId !== undefined) add("run_id = ? AND purpose_type = 'campaign-row'", filter.campaignId);
  if (filter.connectionId !== undefined) add('connection_id = ?', filter.connectionId);
  if (filter.createdFrom !== undefined) add('created_at >= ?', filter.createdFrom);
  if (filter.createdBefore !== undefined) add('created_at < ?', filter.createdBefore);
  if (filter.expiringWithinMs !== undefined)
    add("phase = 'completed' AND expires_at > ? AND expires_at <= ?", now, now + filter.expiringWithinMs);
  const needle = filter.search?.trim();
  if (needle) {
    const text = escapeLike(needle);
    const projects = filter.searchProjectIds?.length ? JSON.stringify(filter.searchProjectIds) : null;
    add(
      `(summary LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\' OR remote_id LIKE ? ESCAPE '\\'${
        projects ? ' OR project_id IN (SELECT value FROM json_each(?))' : ''
      })`,
      `%${text}%`,
      `${text}%`,
      `${text}%`,
      ...(projects ? [projects] : []),
    );
  }
  if (filter.idStartsWith !== undefined) {
    // substr, not LIKE: ids are compared as they are written (LIKE ignores case).
    const length = filter.idStartsWith.length;
    add(
      '(substr(id, 1, ?) = ? OR substr(remote_id, 1, ?) = ?)',
      length,
      filter.idStartsWith,
      length,
      filter.idStartsWith,
    );
  }
  if (filter.ids !== undefined) add('id IN (SELECT value FROM json_each(?))', JSON.stringify(filter.ids));
  if (filter.saved !== undefined) {
    if (!known.savedInDownloads)
      throw new StudioError(
        'Which jobs are saved is not known here; ask the studio that owns the folder.',
        'unsupported',
      );
    // A lookup in downloads_by_job per keepable job, read in the page's order from their own index: no
    // list of every saved job is gathered in memory or bound in, and "Saved" stops at the page's last
    // row rather than sorting every saved job with its record.
    add(`${KEEPABLE} AND ${filter.saved ? '' : 'NOT '}${SAVED_COPY}`);
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** The column each order sorts by before (created_at, id), which every page index ends in; null: creation alone. */
export const SORT_COLUMNS: Record<JobSort, 'kind' | 'phase' | 'cost_credits' | null> = {
  created: null,
  kind: 'kind',
  phase: 'phase',
  cost: 'cost_credits',
};

/** Where the page after a row starts: its sort value (if the order has one), creation time and id. */
export type CursorKey = [string | number, number, string] | [number, string];

/**
 * The keyset condition for "after this row" and the ORDER BY that goes with it. The order is total
 * (the id breaks ties), so a cursor never skips or repeats a row however many jobs arrive meanwhile.
 */
export function orderSql(
  sort: JobSort,
  descending: boolean,
  after: CursorKey | null,
): { where: SqlPart; order: string } {
  const column = SORT_COLUMNS[sort];
  const keys = column ? [column, 'created_at', 'id'] : ['created_at', 'id'];
  const direction = descending ? 'DESC' : 'ASC';
  const order = `ORDER BY ${keys.map((k) => `${k} ${direction}`).join(', ')}`;
  if (after === null) return { where: { sql: '', params: [] }, order };
  return {
    where: { sql: `(${keys.join(', ')}) ${descending ? '<' : '>'} (${boundParams(keys)})`, params: after },
    order,
  };
}

/** The cursor handed to the caller: opaque to it, checked when it comes back. It names its order. */
export function encodeCursor(sort: JobSort, key: CursorKey): string {
  return Buffer.from(JSON.stringify([sort, ...key])).toString('base64url');
}

export function decodeCursor(cursor: string, sort: JobSort): CursorKey {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = null;
  }
  const keyed = SORT_COLUMNS[sort] !== null;
  const key = Array.isArray(value) && value[0] === sort ? value.slice(1) : null;
  const valid =
    key !== null &&
    key.length === (keyed ? 3 : 2) &&
    (!keyed || typeof key[0] === 'string' || typeof key[0] === 'number') &&
    Number.isFinite(key[key.length - 2]) &&
    typeof key[key.length - 1] === 'string';
  // A cursor of another order (or none of ours) would page from a wrong place: refused, not guessed.
  if (!valid)
    throw new StudioError('This cursor is not one of this order of jobs; start from the first page.', 'invalid');
  return key as CursorKey;
}
