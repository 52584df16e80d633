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
];

export const SCHEMA_VERSION = MIGRATIONS.length;
