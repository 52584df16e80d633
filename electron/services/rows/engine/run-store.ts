/** What every run (a batch, a campaign) has that its record needs. */
export interface StoredRun<Row extends { row: number }> {
  id: string;
  createdAt: number;
  rows: Row[];
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
}
