/**
 * The folder's database schema, as the steps that build it: step i takes a database at version i to
 * version i + 1 (`PRAGMA user_version`). A step is never edited once released; a change is a new step,
 * so every folder, however old, goes through the same history.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the job ledger. One row per job: the record's JSON is the truth; the other columns copy the fields
  // the Library filters, sorts and sums by, so a page of jobs is an indexed query, not a scan.
  `CREATE TABLE jobs (
     id TEXT PRIMARY KEY NOT NULL,
     record TEXT NOT NULL,
     kind TEXT,
     phase TEXT,
     connection_id TEXT,
     project_id TEXT,
     created_at INTEGER,
     finished_at INTEGER,
     expires_at INTEGER
   );
   CREATE INDEX jobs_by_created ON jobs (created_at);
   CREATE INDEX jobs_by_phase ON jobs (phase, created_at);
   CREATE INDEX jobs_by_kind ON jobs (kind, created_at);
   CREATE INDEX jobs_by_connection ON jobs (connection_id, created_at);
   CREATE INDEX jobs_by_project ON jobs (project_id, created_at);
   CREATE INDEX jobs_by_finished ON jobs (finished_at);
   CREATE INDEX jobs_by_expiry ON jobs (expires_at);`,
  // 2: pages, counts and sums of jobs in SQL. The fields a filter, sort or sum needs get columns of
  // their own, written with each record (sqlite-ledger.ts jobColumns) and filled here from the JSON of
  // the jobs already kept. Plain columns, not generated ones: SQLite never reads a generated column
  // from an index alone, and the totals must (a million jobs' counts from an index, not their rows).
  // The jobs move into a new table, once, with the record last, after the small fields. Each page index
  // ends in (created_at, id), which makes a page's order total and a cursor after its last row stable;
  // jobs_totals covers the counts and cost sums, and the project and run indexes carry the same fields,
  // so the Library's tabs and totals, a project's or a campaign's too, read only an index.
  `CREATE TABLE jobs_v2 (
     id TEXT PRIMARY KEY NOT NULL,
     kind TEXT,
     phase TEXT,
     connection_id TEXT,
     project_id TEXT,
     created_at INTEGER,
     finished_at INTEGER,
     expires_at INTEGER,
     remote_id TEXT,
     summary TEXT,
     -- A batch's or campaign's id, and which (the purpose's type).
     run_id TEXT,
     purpose_type TEXT,
     -- As totalCost() in common/jobs counts a job: 'charged', 'charged-estimate' (the studio's
     -- estimate of a charge), 'refused' (failed at create, no service id: nothing charged), 'estimated'
     -- (on its way) or 'unknown'.
     cost_state TEXT,
     -- What the Cost column shows and sorts by: the charge, else the estimate; never null (a cursor
     -- compares it): a refused job's is 0, one nobody knows is -1 and sorts first.
     cost_credits REAL,
     record TEXT NOT NULL
   );
   INSERT INTO jobs_v2
     SELECT id, kind, phase, connection_id, project_id, created_at, finished_at, expires_at,
       json_extract(record, '$.remoteId'),
       json_extract(record, '$.summary'),
       coalesce(json_extract(record, '$.purpose.batchId'), json_extract(record, '$.purpose.campaignId')),
       json_extract(record, '$.purpose.type'),
       CASE
         WHEN json_extract(record, '$.chargedCredits') IS NOT NULL THEN
           CASE WHEN json_extract(record, '$.chargeSource') = 'estimate' THEN 'charged-estimate' ELSE 'charged' END
         WHEN phase = 'failed' AND json_extract(record, '$.remoteId') IS NULL THEN 'refused'
         WHEN json_extract(record, '$.costEstimate.credits') IS NOT NULL THEN 'estimated'
         ELSE 'unknown' END,
       CASE
         WHEN json_extract(record, '$.chargedCredits') IS NOT NULL THEN json_extract(record, '$.chargedCredits')
         WHEN phase = 'failed' AND json_extract(record, '$.remoteId') IS NULL THEN 0
         ELSE coalesce(json_extract(record, '$.costEstimate.credits'), -1) END,
       record
     FROM jobs;
   DROP TABLE jobs;
   ALTER TABLE jobs_v2 RENAME TO jobs;
   CREATE INDEX jobs_page_created ON jobs (created_at, id);
   CREATE INDEX jobs_page_phase ON jobs (phase, created_at, id);
   CREATE INDEX jobs_page_kind ON jobs (kind, created_at, id);
   CREATE INDEX jobs_page_project ON jobs (project_id, created_at, id, phase, kind, cost_state, cost_credits);
   CREATE INDEX jobs_page_run ON jobs (run_id, purpose_type, created_at, id, phase, kind, cost_state, cost_credits);
   CREATE INDEX jobs_page_cost ON jobs (cost_credits, created_at, id);
   CREATE INDEX jobs_totals ON jobs (phase, kind, cost_state, cost_credits);
   CREATE INDEX jobs_by_connection ON jobs (connection_id, created_at);
   CREATE INDEX jobs_by_finished ON jobs (finished_at);
   CREATE INDEX jobs_by_expiry ON jobs (expires_at);`,
  // 3: the uploader's record of the files it put in a storage, one row per bytes (hash) and storage:
  // the uploader looks a file up by both, and a later upload or new link of the same bytes replaces the
  // row. The expiry index lets the entries whose link ended long ago be deleted without a scan. It was
  // a JSON record rewritten whole at each upload; the first start takes it in (uploads-import.ts).
  `CREATE TABLE uploads (
     storage_id TEXT NOT NULL,
     hash TEXT NOT NULL,
     object_key TEXT NOT NULL,
     url TEXT NOT NULL,
     -- null: a link that works until the object is deleted (a public address).
     expires_at INTEGER,
     size_bytes INTEGER NOT NULL,
     file_name TEXT NOT NULL,
     uploaded_at INTEGER NOT NULL,
     PRIMARY KEY (storage_id, hash)
   );
   CREATE INDEX uploads_by_expiry ON uploads (expires_at);`,
  // 4: the download queue, which is also the record of every copy saved. One row per entry: the entry's
  // JSON is the truth, the other columns copy what a reader looks it up by (a saved copy by its link, a
  // job's copies). `queue` keeps two queues apart: 'studio', the one queue written today, and 'cli', the
  // command line's own queue of earlier versions, read until its copies are adopted into the studio's
  // (same ids, so the key is both). It was a JSON file and a journal; the first start takes them in
  // (downloads-import.ts).
  `CREATE TABLE downloads (
     queue TEXT NOT NULL,
     id TEXT NOT NULL,
     job_id TEXT NOT NULL,
     url TEXT NOT NULL,
     state TEXT NOT NULL,
     updated_at INTEGER NOT NULL,
     entry TEXT NOT NULL,
     PRIMARY KEY (queue, id)
   );
   CREATE INDEX downloads_by_url ON downloads (url, state, updated_at);
   CREATE INDEX downloads_by_job ON downloads (job_id);`,
  // 5: "Saved" and "Not saved" as an indexed question. `keepable` is 1 for a job with a result of its own
  // to keep: completed, with a result link, and not a step of another job (stepOf in common/jobs/steps.ts:
  // a campaign row's voiceover, a scene's voiceover). It was read from every completed job's JSON at each
  // question; it is written with each record (jobColumns) and filled here from the JSON, once. It goes at
  // the row's end (ADD COLUMN), not into a copy of the table with the record last: the questions read it
  // from the indexes below, and a copy would rewrite every record and index of the folder.
  // Each page index gets a twin that holds the keepable jobs alone (partial: a write of any other job, a
  // running job's poll or a voiceover step, never touches them), in the same order ending in (created_at,
  // id): a "Not saved" page in any order reads its twin from the top and stops at its last row, testing
  // each id against the saved ones bound in, without a record. The created twin also carries what the
  // totals count and sum, as jobs_page_project and jobs_page_run do, so the counts of "Not saved" and its
  // sums per project and batch are one pass over the keepable jobs' entries (job-queries.ts names it:
  // left to itself SQLite would take jobs_totals and look every job's row up). Which copies are saved
  // stays the downloads' record checked against the disk, bound in as a list of ids.
  `ALTER TABLE jobs ADD COLUMN keepable INTEGER NOT NULL DEFAULT 0;
   UPDATE jobs SET keepable = 1
     WHERE phase = 'completed' AND json_extract(record, '$.resultUrl') IS NOT NULL
       AND coalesce(purpose_type, '') <> 'scene-voiceover'
       AND NOT (purpose_type = 'campaign-row' AND json_extract(record, '$.purpose.step') IS 'voiceover');
   CREATE INDEX jobs_keepable_created
     ON jobs (created_at, id, phase, kind, cost_state, cost_credits, project_id, run_id, purpose_type)
     WHERE keepable = 1;
   CREATE INDEX jobs_keepable_phase ON jobs (phase, created_at, id) WHERE keepable = 1;
   CREATE INDEX jobs_keepable_kind ON jobs (kind, created_at, id) WHERE keepable = 1;
   CREATE INDEX jobs_keepable_cost ON jobs (cost_credits, created_at, id) WHERE keepable = 1;`,
  // 6: what a start and the engine's reads ask of jobs they do not hold (records/ledger-find.ts), each a
  // small partial index rather than a scan of every job: the ended jobs the reactor has not acted on
  // (reactedAt is in the record alone; few at any time), each connection's latest real charges of each
  // kind (the guide for unpublished prices), and a completed job by its result link (a campaign row's
  // saved video, an old version's copy). ledger-find.ts words its queries exactly as these WHEREs, which
  // SQLite needs to use them (a test reads the plans).
  `CREATE INDEX jobs_unreacted ON jobs (created_at)
     WHERE phase IN ('completed', 'failed', 'outcome-unknown') AND json_extract(record, '$.reactedAt') IS NULL;
   CREATE INDEX jobs_charges ON jobs (connection_id, kind, created_at)
     WHERE cost_state = 'charged' AND phase <> 'failed';
   CREATE INDEX jobs_by_result ON jobs (json_extract(record, '$.resultUrl')) WHERE phase = 'completed';`,
  // 7: the runs of the row engine (campaigns, batches), which were `<kind>/<id>.json` with a journal of
  // row changes beside it (records/runs-import.ts takes them in). A run's own fields are one row of `runs`
  // (its JSON without its rows), each of its rows one row of `run_rows`, so a row's change writes that
  // row alone. `kind` is the folder the run lived in. A kind's list is read newest first from
  // `runs_newest`; a run's rows by the key's prefix, put back in the run's order by `position` (its
  // index among the rows when written; a sort of one run's rows, cheaper than an index kept up to date
  // on every row's change).
  `CREATE TABLE runs (
     kind TEXT NOT NULL,
     id TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     run TEXT NOT NULL,
     PRIMARY KEY (kind, id)
   ) WITHOUT ROWID;
   CREATE INDEX runs_newest ON runs (kind, created_at);
   CREATE TABLE run_rows (
     kind TEXT NOT NULL,
     run_id TEXT NOT NULL,
     row INTEGER NOT NULL,
     position INTEGER NOT NULL,
     record TEXT NOT NULL,
     PRIMARY KEY (kind, run_id, row)
   );`,
  // 8: the downloads of a selection of any size wait in the table, not in the manager's memory: their
  // rows say `backlog` (or `backlog-paused`) in the state column until the manager takes the next few in
  // (records/download-backlog.ts). This index holds those rows alone: it finds them in the order queued
  // and counts them without reading a row, however many copies the table also records, and no other
  // question of the table can take it for a worse one (a saved copy by its link keeps downloads_by_url).
  `CREATE INDEX downloads_backlog ON downloads (queue, state) WHERE state IN ('backlog', 'backlog-paused');`,
  // 9: the Library's sums per project and per batch (jobs.totals with its groups) read these indexes in
  // the order they group by. From jobs_page_project SQLite sorted every job into a temporary tree first
  // (1.3 s of the host's thread at a million jobs, 0.17 s now), and from jobs_page_run it read every
  // campaign's row to find the batches' (0.13 s at a million campaign rows, none now).
  `CREATE INDEX jobs_project_cost ON jobs (project_id, cost_state, cost_credits, created_at);
   CREATE INDEX jobs_batch_cost ON jobs (purpose_type, run_id, cost_state, cost_credits, created_at);`,
  // 10: a run's figures by row and step (records/run-job-sums.ts), which the Campaigns page asks for at
  // every change of a running campaign, read the row, step, take and polls of each of its jobs from the
  // record's JSON: 0.1 s of the host's thread for a campaign of 500 rows at each question, four times a
  // second. A run's jobs keep them in columns (jobColumns; null for a job of no run), and this index
  // holds them with the figures, so those questions read the index alone. Partial: a job of no run is
  // not in it (a run's questions name its id, which SQLite reads as run_id IS NOT NULL).
  `ALTER TABLE jobs ADD COLUMN purpose_row INTEGER;
   ALTER TABLE jobs ADD COLUMN purpose_step TEXT;
   ALTER TABLE jobs ADD COLUMN purpose_take INTEGER;
   ALTER TABLE jobs ADD COLUMN polls INTEGER;
   UPDATE jobs SET purpose_row = json_extract(record, '$.purpose.row'),
       purpose_step = json_extract(record, '$.purpose.step'), purpose_take = json_extract(record, '$.purpose.take'),
       polls = json_extract(record, '$.polls')
     WHERE run_id IS NOT NULL;
   CREATE INDEX jobs_run_steps ON jobs
     (run_id, purpose_type, purpose_row, purpose_step, purpose_take, polls, phase, cost_state, cost_credits,
      created_at, finished_at) WHERE run_id IS NOT NULL;`,
  // 11: a run's rows counted by state in SQL (records/sqlite-runs.ts COUNT_STATES), for the lists of
  // campaigns and batches and a start's choice of the runs to go on with: they read every row's JSON of
  // every run to count them (100,000 rows read and parsed to show one line). The state gets a plain
  // column, not an index on json_extract(record, '$.state'): SQLite never reads an expression from an
  // index alone, and the counts must come from the index (as the jobs' columns of step 2 do). The take
  // goes beside it, so a batch's rows meet their take's jobs from the index too (records/batch-row-counts.ts).
  // Every write fills both from the very JSON it writes (PUT_RUN_ROW), so they cannot disagree whoever
  // writes; here they are filled once from the rows kept (a torn row's JSON left null, never a failed step).
  `ALTER TABLE run_rows ADD COLUMN state TEXT;
   ALTER TABLE run_rows ADD COLUMN take INTEGER;
   UPDATE run_rows SET state = json_extract(record, '$.state'), take = json_extract(record, '$.take')
     WHERE json_valid(record);
   CREATE INDEX run_rows_states ON run_rows (kind, run_id, state, take, row);`,
  // 12: the download manager holds only the downloads under way (the open ones, found at its start by
  // downloads_open) and asks the table for every other entry when it needs one: the copies at a path
  // (a file the studio may have saved, and the copies in a folder, by the path's prefix), a run's entries
  // by its batch id (is the run over, how did it end), the copies a page at a time for the copy check
  // (downloads_copies, walked by rowid), and the jobs with a copy lost (downloads_lost, read whole: the
  // job ids alone, not a million entries' JSON). Partial where a question names the states.
  `CREATE INDEX downloads_open ON downloads (queue, state) WHERE state IN ('queued', 'downloading', 'paused');
   CREATE INDEX downloads_copies ON downloads (queue) WHERE state IN ('saved', 'missing', 'changed');
   CREATE INDEX downloads_by_path ON downloads (json_extract(entry, '$.savedPath'));
   CREATE INDEX downloads_by_batch ON downloads (json_extract(entry, '$.batchId'));
   CREATE INDEX downloads_lost ON downloads (queue, job_id) WHERE state IN ('missing', 'changed', 'failed', 'cancelled');`,
  // 13: a page of a run's rows read from the database (records/run-row-pages.ts): the Campaigns grid and
  // a batch's table asked for 50 rows, and the host read and parsed every row of the run to cut them out.
  // `run_rows_order` holds the rows in the run's order with what the "problems" filter and its count ask
  // of each: its state and take (step 11), `held` (1: the row's own problems list is not empty, a reason
  // it is held) and `result_url` (a campaign row's made file's link, to meet the record of copies' lost
  // links). So a window is a walk of the index from its offset and a count one pass over it, and only the
  // window's rows' JSON is read. Columns, not expressions, for the reason step 11 gives. Every write fills
  // them from the JSON it writes (PUT_RUN_ROW); here they are filled once from the rows kept.
  `ALTER TABLE run_rows ADD COLUMN held INTEGER;
   ALTER TABLE run_rows ADD COLUMN result_url TEXT;
   UPDATE run_rows SET held = json_array_length(record, '$.problems') > 0,
       result_url = json_extract(record, '$.resultUrl')
     WHERE json_valid(record);
   CREATE INDEX run_rows_order ON run_rows (kind, run_id, position, row, state, take, held, result_url);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The version from which run_rows keeps each row's state and take in columns (step 11). A command that
 * only reads, beside a folder an older studio last opened, finds them missing and reads the rows whole.
 */
export const RUN_ROW_COLUMNS = 11;

/** The version from which run_rows keeps what a page of rows is read by (step 13); before it pages are cut from the whole run. */
export const RUN_ROW_PAGES = 13;

/**
 * The jobs table's indexes as the last step leaves them (a test checks them against the database). The
 * first start's import of the old journal into an empty table writes without them and builds them once
 * at its end: building an index over rows already written took half the time that keeping ten indexes
 * up to date row by row did. A step that changes the table's indexes changes this list too.
 */
export const JOB_INDEXES: Readonly<Record<string, string>> = {
  jobs_page_created: '(created_at, id)',
  jobs_page_phase: '(phase, created_at, id)',
  jobs_page_kind: '(kind, created_at, id)',
  jobs_page_project: '(project_id, created_at, id, phase, kind, cost_state, cost_credits)',
  jobs_page_run: '(run_id, purpose_type, created_at, id, phase, kind, cost_state, cost_credits)',
  jobs_project_cost: '(project_id, cost_state, cost_credits, created_at)',
  jobs_batch_cost: '(purpose_type, run_id, cost_state, cost_credits, created_at)',
  jobs_page_cost: '(cost_credits, created_at, id)',
  jobs_totals: '(phase, kind, cost_state, cost_credits)',
  jobs_by_connection: '(connection_id, created_at)',
  jobs_by_finished: '(finished_at)',
  jobs_by_expiry: '(expires_at)',
  jobs_keepable_created:
    '(created_at, id, phase, kind, cost_state, cost_credits, project_id, run_id, purpose_type) WHERE keepable = 1',
  jobs_keepable_phase: '(phase, created_at, id) WHERE keepable = 1',
  jobs_keepable_kind: '(kind, created_at, id) WHERE keepable = 1',
  jobs_keepable_cost: '(cost_credits, created_at, id) WHERE keepable = 1',
  jobs_unreacted:
    "(created_at) WHERE phase IN ('completed', 'failed', 'outcome-unknown') AND json_extract(record, '$.reactedAt') IS NULL",
  jobs_charges: "(connection_id, kind, created_at) WHERE cost_state = 'charged' AND phase <> 'failed'",
  jobs_by_result: "(json_extract(record, '$.resultUrl')) WHERE phase = 'completed'",
  jobs_run_steps:
    '(run_id, purpose_type, purpose_row, purpose_step, purpose_take, polls, phase, cost_state, cost_credits, created_at, finished_at) WHERE run_id IS NOT NULL',
};

/** Builds any of the jobs table's indexes that is missing (an import interrupted after it dropped them). */
export function ensureJobIndexes(db: IndexedDatabase): void {
  for (const step of buildJobIndexes(db)) void step;
}

interface IndexedDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): { raw(): { all(): unknown[] } };
}

/**
 * ensureJobIndexes paused before each index it builds (over a million jobs one takes seconds), with
 * which of the missing ones it is: a host that drives it reports it and gives its event loop a turn.
 */
export function* buildJobIndexes(db: IndexedDatabase): Generator<{ step: number; steps: number }, void> {
  const present = new Set(
    (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs'").raw().all() as [string][]
    ).map(([name]) => name),
  );
  const missing = Object.entries(JOB_INDEXES).filter(([name]) => !present.has(name));
  for (const [index, [name, columns]] of missing.entries()) {
    yield { step: index + 1, steps: missing.length };
    db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON jobs ${columns}`);
  }
}
