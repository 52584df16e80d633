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
  // 2: pages, counts and sums of jobs in SQL. The fields a filter, sort or sum needs become virtual
  // columns read from the record's JSON: adding them rewrites no row (a million jobs migrate in the
  // time their indexes take to build), and the ledger's writes stay as they are. Each index ends in
  // (created_at, id) so a page's order is total and a cursor after its last row is stable; they replace
  // step 1's indexes of which they are extensions. jobs_totals covers the counts and cost sums, so the
  // Library's tabs and totals read an index, not a million records.
  `ALTER TABLE jobs ADD COLUMN remote_id TEXT GENERATED ALWAYS AS (json_extract(record, '$.remoteId')) VIRTUAL;
   ALTER TABLE jobs ADD COLUMN summary TEXT GENERATED ALWAYS AS (json_extract(record, '$.summary')) VIRTUAL;
   ALTER TABLE jobs ADD COLUMN run_id TEXT GENERATED ALWAYS AS
     (coalesce(json_extract(record, '$.purpose.batchId'), json_extract(record, '$.purpose.campaignId'))) VIRTUAL;
   ALTER TABLE jobs ADD COLUMN purpose_type TEXT GENERATED ALWAYS AS (json_extract(record, '$.purpose.type')) VIRTUAL;
   -- As totalCost() in common/jobs counts a job: charged (by an estimate or not), refused at create
   -- (no service id: nothing charged), on its way at its estimate, or not known.
   ALTER TABLE jobs ADD COLUMN cost_state TEXT GENERATED ALWAYS AS (CASE
       WHEN json_extract(record, '$.chargedCredits') IS NOT NULL THEN
         CASE WHEN json_extract(record, '$.chargeSource') = 'estimate' THEN 'charged-estimate' ELSE 'charged' END
       WHEN phase = 'failed' AND remote_id IS NULL THEN 'refused'
       WHEN json_extract(record, '$.costEstimate.credits') IS NOT NULL THEN 'estimated'
       ELSE 'unknown' END) VIRTUAL;
   -- What the Cost column shows and sorts by: the charge, else the estimate; never null (a cursor
   -- compares it), so a cost nobody knows sorts first as -1.
   ALTER TABLE jobs ADD COLUMN cost_credits REAL GENERATED ALWAYS AS (CASE cost_state
       WHEN 'refused' THEN 0
       WHEN 'unknown' THEN -1
       ELSE coalesce(json_extract(record, '$.chargedCredits'), json_extract(record, '$.costEstimate.credits')) END) VIRTUAL;
   DROP INDEX jobs_by_created;
   DROP INDEX jobs_by_phase;
   DROP INDEX jobs_by_kind;
   DROP INDEX jobs_by_project;
   CREATE INDEX jobs_page_created ON jobs (created_at, id);
   CREATE INDEX jobs_page_phase ON jobs (phase, created_at, id);
   CREATE INDEX jobs_page_kind ON jobs (kind, created_at, id);
   CREATE INDEX jobs_page_project ON jobs (project_id, created_at, id);
   CREATE INDEX jobs_page_run ON jobs (run_id, created_at, id);
   CREATE INDEX jobs_page_cost ON jobs (cost_credits, created_at, id);
   CREATE INDEX jobs_totals ON jobs (phase, kind, cost_state, cost_credits);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
