import type { BatchRowsQuery } from '../../jobs/run-sums';
/** What every run (a batch, a campaign) has that its record needs. */
export interface StoredRun<Row extends { row: number }> {
  id: string;
  createdAt: number;
  rows: Row[];
}

/** A run's own fields without its rows, and its rows counted by state: what a list of runs shows of it. */
export interface RunSummary<Run extends StoredRun<{ row: number }>> {
  run: Omit<Run, 'rows'>;
  /** How many of its rows are in each state. */
  counts: Record<string, number>;
  /** How many rows it has. */
  total: number;
  /** The run with its rows, when the engine holds it already (as it is now, changes not yet written). */
  held?: Run;
}

/** The summary of a run held whole (one in memory, or kept as files by an earlier version). */
export function summarise<Run extends StoredRun<{ row: number }>>(whole: Run): RunSummary<Run> {
  const { rows, ...run } = whole;
  const counts: Record<string, number> = {};
  // As the database counts them: a row without a state is in the total only.
  for (const { state } of rows as { state?: unknown }[])
    if (typeof state === 'string') counts[state] = (counts[state] ?? 0) + 1;
  return { run, counts, total: rows.length };
}

/**
 * One kind's runs as the folder keeps them (records/sqlite-runs.ts: a table of runs and one of their
 * rows in the folder's database). A row's change writes that row alone, so a run of 10,000 rows costs
 * one row's bytes per change, not the run's.
 */
export interface RunStore<Row extends { row: number }, Run extends StoredRun<Row>> {
  /** The run with its rows; null when there is none. Throws, naming the record, when it cannot be read. */
  get(id: string): Promise<Run | null>;
  /** Every run that can be read, newest first; one that cannot is left as it is, logged and skipped. */
  list(): Promise<Run[]>;
  /**
   * Every run that can be read, newest first, without its rows: the database counts them by state, so a
   * list of runs of 100,000 rows each reads none of them.
   */
  summaries(): Promise<RunSummary<Run>[]>;
  /** The whole run written (made, replaced, or its own fields changed: state, balance). */
  putRun(run: Run): Promise<void>;
  /** One row changed (`run` is the run as it is now, the row in it): only that row is written. */
  putRow(run: Run, row: Row): Promise<void>;
  /** The run and its rows removed (a worker's one-row run, reported). */
  remove(id: string): Promise<void>;
  /** Settles once every change asked for so far is committed. */
  flush(): Promise<void>;
}

/** The runs of a data folder, one store per kind (the host opens them with the folder's other records). */
export interface RunStores {
  /**
   * The store of one kind (`campaigns`, `batches`): `parse` checks a run read back (it throws, naming
   * `where`, for one it cannot read) and `noun` names the kind in messages.
   */
  of<Row extends { row: number }, Run extends StoredRun<Row>>(
    kind: string,
    parse: (raw: unknown, where: string) => Run,
    noun?: string,
  ): RunStore<Row, Run>;
  /**
   * Pages of a run's rows read where they are kept, each change so far in (records/run-row-pages.ts);
   * absent or null: the store cannot, and a page is cut from the run read whole.
   */
  pages?(): Promise<RunRowPages | null>;
}

/** What a page of a run's rows asks: its window, whether only rows with a problem, and the links whose copies are lost. */
export interface RowWindow {
  offset: number;
  limit: number;
  problems: boolean;
  /** Result links whose copies are lost with none intact, as the record of copies has them. */
  lost: readonly string[];
}

/** A window's rows as stored (their JSON), with the counts of the run's rows. */
export interface RowsWindow {
  /** Rows the filter keeps, in all. */
  total: number;
  /** Rows with a problem, in all. */
  problems: number;
  /** Campaigns: done rows whose file is lost (0 for a batch, whose rows hold no link). */
  lostDone: number;
  /** The window's rows' JSON texts, in the run's order. */
  rows: string[];
}

/**
 * Pages of runs read where their rows are kept (records/run-row-pages.ts): the window and the counts
 * worked out by the store, only the window's rows read. The problems are the pages' own (rowHasProblem
 * for a campaign's rows, batchRowHasProblem over batchView's states for a batch's).
 */
export interface RunRowPages {
  /** The run's own fields as stored (its JSON without rows); null when the store has no such run. */
  own(kind: string, id: string): string | null;
  campaign(id: string, window: RowWindow): RowsWindow;
  batch(query: BatchRowsQuery, window: RowWindow): RowsWindow;
  /** The records' JSON texts of every job of these rows of a batch. */
  batchRowsJobs(batchId: string, rows: readonly number[]): string[];
}
