import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JobFilter, JobPage, JobPageQuery, JobTotals, JobView } from '../common/bridge/jobs';
import { MAX_PAGE_JOBS } from '../common/bridge/job-pages';
import { defaultDataDir } from '../services/host/data-dir';
import { requireDataFolder } from '../services/host/data-folder-state';
import { reachOwner } from '../services/host/owner-client';
import { savedCopiesIn, type SavedCopy } from '../services/downloads/saved-report';
import { JOURNAL } from '../services/jobs/ledger-read';
import { openRecordsDatabase } from '../services/records/database';
import { SqlJobQueries, type JobStreamQuery } from '../services/records/job-queries';
import { SqliteQueueReader } from '../services/records/sqlite-downloads';
import { copiesOfJobs } from './job-copies';
import { namedBy, openStudio } from './cli-host';
import { flag, type CliIo, type ParsedArgs } from './command';
import { ownerLink, type StudioLink } from './studio-link';

/**
 * Where `studio jobs list` reads the folder's jobs: a page, the totals, or every job streamed, never
 * all of them held at once. The studio that owns the folder answers page by page over its channel;
 * with none, this run reads the database itself, read-only, a row at a time from SQLite's cursor.
 */
export interface JobSource {
  /** "command line" when this run reads the database itself, else the owner's kind ("web host"). */
  kind: string;
  dataDir: string;
  each(query: JobStreamQuery): AsyncIterable<JobView>;
  page(query: JobPageQuery): Promise<JobPage>;
  totals(filter: JobFilter): Promise<JobTotals>;
  /** The saved copies of these jobs, checked on disk now (by job id). */
  copies(jobIds: readonly string[]): Promise<Map<string, SavedCopy[]>>;
  close(): Promise<void>;
}

/**
 * Opens the source for this command line: the owning studio when one answers (not with --base-url,
 * which never goes through one), else the database read directly. A folder whose database does not
 * hold every job yet (none made, or an old journal its owner has not taken in) is read as before,
 * through this run's own read-only studio, which answers pages from a copy of its records.
 */
export async function openJobSource(args: ParsedArgs, io: CliIo): Promise<JobSource> {
  const dataDir = resolve(io.cwd, flag(args, '--data-dir') ?? defaultDataDir(io.env));
  requireDataFolder(dataDir, namedBy(args, io));
  const owner = flag(args, '--base-url') === undefined ? await reachOwner(dataDir) : null;
  if (owner) return linkSource(ownerLink(owner, dataDir));
  if (!existsSync(join(dataDir, 'jobs', JOURNAL))) {
    const database = openRecordsDatabase({ dataDir, readOnly: true });
    if (database) {
      const queries = new SqlJobQueries(database.db);
      return {
        kind: 'command line',
        dataDir,
        each: (query) => fromSync(queries.each(query)),
        page: async (query) => queries.page(query),
        totals: async (filter) => queries.totals(filter),
        copies: (jobIds) => savedCopiesIn(new SqliteQueueReader(database), jobIds),
        close: async () => database.close(),
      };
    }
  }
  return linkSource(await openStudio(args, io, 'reads', { sendsWork: false, needsRecords: true }));
}

/** The jobs through a studio link (an owner's channel or this run's own services), a page per call. */
function linkSource(studio: StudioLink): JobSource {
  return {
    kind: studio.kind,
    dataDir: studio.dataDir,
    async *each(query) {
      let left = query.limit ?? Infinity;
      let after: string | undefined;
      while (left > 0) {
        const page = await studio.call('jobs.page', { ...query, limit: Math.min(left, MAX_PAGE_JOBS), after });
        yield* page.jobs;
        left -= page.jobs.length;
        if (page.next === null) return;
        after = page.next;
      }
    },
    page: (query) => studio.call('jobs.page', query),
    totals: (filter) => studio.call('jobs.totals', filter),
    // The owner's record as it holds it now (its rows can lag its last changes by a write).
    copies: (jobIds) => copiesOfJobs(studio, jobIds),
    close: () => studio.close(),
  };
}

async function* fromSync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
