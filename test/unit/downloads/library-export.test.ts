// The Library's actions over more jobs than any list crossing the bridge may name (MAX_JOBS_AT_ONCE):
// "Export CSV" written by the host a page at a time, and a selection's preview and renaming walked by
// pages. A real records database of 25,000+ jobs; every call goes through its bridge schema.
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { downloadsCalls, MAX_JOBS_AT_ONCE, PREVIEW_JOBS } from '../../../electron/common/bridge/downloads';
import { MAX_PAGE_JOBS } from '../../../electron/common/bridge/job-pages';
import { createDownloadsDomain } from '../../../electron/services/downloads/downloads-domain';
import { EXPORT_PAGE_JOBS, ExportFiles } from '../../../electron/services/downloads/library-export';
import type { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { libraryQuestions } from '../../../electron/services/host/library-questions';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import type { PlatformAdapters } from '../../../electron/services/host/types';
import { openRecordsDatabase, type RecordsDatabase } from '../../../electron/services/records/database';
import { SqlJobQueries } from '../../../electron/services/records/job-queries';
import { jobColumns, PUT_JOB } from '../../../electron/services/records/sqlite-ledger';
import { recordSavedCopies } from '../records/download-fixtures';
import { removeTempDirs, tempDir } from '../records/ledger-fixtures';
import { jobId, madeUpJob, NOW, selectionService } from './selection-fixture';

const MANY = 25_500;
/** Jobs with a saved copy recorded (download-fixtures' `download(n)`: /videos/r-n.mp4). */
const SAVED = [0, 7, 25_499].map(jobId);

let dir: string;
let service: DownloadsService;
let reader: RecordsDatabase;

/** MANY completed jobs, newest first by number; every tenth of project p1. */
function writeJobs(dataDir: string): void {
  const database = openRecordsDatabase({ dataDir });
  const put = database.db.prepare(PUT_JOB);
  database.db.transaction(() => {
    for (let n = 0; n < MANY; n += 1) {
      const job = {
        ...madeUpJob(jobId(n)),
        createdAt: NOW - n * 1000,
        summary: n === 1 ? '=cmd, "quoted"' : `Clip ${n}`,
      };
      if (n % 10 === 0) job.projectId = 'p1';
      put.run(job.id, JSON.stringify(job), ...jobColumns(job));
    }
  })();
  recordSavedCopies(database.db, SAVED);
  database.close();
}

beforeAll(async () => {
  dir = tempDir('library-export-');
  writeJobs(dir);
  service = selectionService(dir);
  await service.ready;
  reader = openRecordsDatabase({ dataDir: dir, readOnly: true }) as RecordsDatabase;
}, 120_000);
afterAll(async () => {
  reader.close();
  await service.dispose();
  removeTempDirs();
});
afterEach(() => vi.restoreAllMocks());

/** The downloads domain of a host whose records are the folder's, with these platform adapters. */
function domainWith(platform: PlatformAdapters) {
  const queries = new SqlJobQueries(reader.db, () => NOW);
  const asked: number[] = [];
  const library = libraryQuestions({
    dataDir: dir,
    queries: {
      idPage: (...args) => queries.idPage(...args),
      totals: (...args) => queries.totals(...args),
      page: (query, known) => (asked.push(query.limit), queries.page(query, known)),
    },
    flush: async () => undefined,
    knownCopies: async () => ({ savedInDownloads: true }),
    projectName: async (id) => (id === 'p1' ? 'Spring, "sale"' : null),
  });
  const base = createMemoryHostBase({ dataDir: dir, platform });
  const media = { probe: async () => ({}) as never, frame: async () => Buffer.alloc(0) };
  const domain = createDownloadsDomain(base, service, { archive: {} as never, start() {}, stop() {} }, media, library);
  /** A call as a host makes it: its arguments checked by the bridge's schema, its answer too. */
  const bridge = async <C extends keyof typeof downloadsCalls>(channel: C, ...args: unknown[]) => {
    const spec = downloadsCalls[channel];
    const checked = spec.args.parse(args) as unknown[];
    const handler = domain.handlers[channel] as (...a: unknown[]) => Promise<unknown>;
    return spec.result.parse(await handler(...checked)) as Awaited<ReturnType<typeof handler>>;
  };
  return { bridge, base, library, asked };
}

const ALL = { filter: {} };
const lines = (file: string) => readFileSync(file, 'utf8').split('\r\n').slice(0, -1);

describe('"Export CSV" of a Library larger than any list the bridge takes', () => {
  it('writes every job shown, in order, where the desktop save dialog chose, a page at a time', async () => {
    expect(MANY).toBeGreaterThan(MAX_JOBS_AT_ONCE);
    const target = join(dir, 'chosen', 'library.csv');
    mkdirSync(join(dir, 'chosen'), { recursive: true });
    const { bridge, base, asked } = domainWith({ chooseSavePath: async () => target });
    const answer = (await bridge('downloads.exportCsv', ALL)) as { count: number; savedTo: string; url: null };
    expect(answer).toEqual({ count: MANY, savedTo: target, url: null });

    const rows = lines(target);
    expect(rows).toHaveLength(MANY + 1);
    expect(rows[0]).toBe(
      'studio id,service id,project,kind,request,status,created,expires,cost,download,saved copies,result link',
    );
    // Newest first, each job once; a project's name and a saved copy in their columns.
    expect(rows[1]).toMatch(/^job-000000,r-job-000000,"Spring, ""sale""",Avatar video,Clip 0,Completed,/);
    expect(rows[1]).toContain(',Saved,/videos/r-0.mp4,');
    expect(rows[2]).toContain(`,"'=cmd, ""quoted""",`);
    expect(rows.at(-1)).toMatch(/^job-025499,/);
    expect(new Set(rows.slice(1).map((r) => r.split(',')[0])).size).toBe(MANY);
    // Read a page at a time, never more than a page asked at once; progress told as it went.
    expect(Math.max(...asked)).toBe(EXPORT_PAGE_JOBS);
    expect(EXPORT_PAGE_JOBS).toBeLessThanOrEqual(MAX_PAGE_JOBS);
    expect(asked.length).toBe(Math.ceil(MANY / EXPORT_PAGE_JOBS));
    const progress = base.emitted.filter((e) => e.event === 'downloads.exportProgress').map((e) => e.payload);
    expect(progress).toHaveLength(asked.length);
    expect(progress.at(-1)).toEqual({ written: MANY, total: MANY });
    // Nothing but the file is left in the folder.
    expect(readdirSync(join(dir, 'chosen'))).toEqual(['library.csv']);
  });

  it('writes the file as it reads: the first pages are on disk before the last is read', async () => {
    const target = join(dir, 'streamed.csv');
    const { bridge, library } = domainWith({ chooseSavePath: async () => target });
    const shown = library.shown.bind(library);
    let onDiskBeforeLast = 0;
    vi.spyOn(library, 'shown').mockImplementation(async (query) => {
      const pages = await shown(query);
      return {
        count: pages.count,
        page: async (after, limit) => {
          const page = await pages.page(after, limit);
          if (page.next === null) {
            const part = readdirSync(dir).find((name) => name.startsWith('.streamed.csv.'));
            onDiskBeforeLast = part ? lines(join(dir, part)).length : -1;
          }
          return page;
        },
      };
    });
    await bridge('downloads.exportCsv', { filter: { phases: ['completed'] }, descending: false });
    // The header and every page but the last were written to the temporary file (not held).
    expect(onDiskBeforeLast).toBe(1 + (Math.ceil(MANY / EXPORT_PAGE_JOBS) - 1) * EXPORT_PAGE_JOBS);
    expect(lines(target)[1]).toMatch(/^job-025499,/);
  });

  it('leaves nothing under the chosen name, nor a half file, when the export fails half way', async () => {
    const target = join(dir, 'failed', 'library.csv');
    mkdirSync(join(dir, 'failed'));
    const { bridge, library } = domainWith({ chooseSavePath: async () => target });
    const shown = library.shown.bind(library);
    vi.spyOn(library, 'shown').mockImplementation(async (query) => {
      const pages = await shown(query);
      let n = 0;
      return {
        count: pages.count,
        page: async (after, limit) =>
          ++n === 3 ? Promise.reject(new Error('disk I/O error')) : pages.page(after, limit),
      };
    });
    await expect(bridge('downloads.exportCsv', ALL)).rejects.toThrow(
      `The export failed: disk I/O error. Nothing was written to ${target}.`,
    );
    expect(readdirSync(join(dir, 'failed'))).toEqual([]);
    // An earlier file under that name is left as it was.
    writeFileSync(target, 'kept');
    await expect(bridge('downloads.exportCsv', ALL)).rejects.toThrow(/disk I\/O error/);
    expect(readFileSync(target, 'utf8')).toBe('kept');
    expect(readdirSync(join(dir, 'failed'))).toEqual(['library.csv']);
  });

  it('answers null when the save dialog is cancelled, and writes nothing', async () => {
    const { bridge, asked } = domainWith({ chooseSavePath: async () => null });
    expect(await bridge('downloads.exportCsv', ALL)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('in the web host, writes into the data folder and offers the file once by an unguessable id', async () => {
    const { bridge, library } = domainWith({});
    const answer = (await bridge('downloads.exportCsv', { filter: { search: 'Clip 2' } })) as {
      url: string;
      count: number;
    };
    expect(answer.url).toMatch(/^\/bridge\/exports\/[0-9a-f]{32}$/);
    const file = library.exports.take(answer.url.split('/').at(-1) as string);
    expect(file?.name).toMatch(/^library-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file?.path.startsWith(join(dir, 'exports'))).toBe(true);
    expect(lines(file?.path as string)).toHaveLength(answer.count + 1);
    expect(answer.count).toBeGreaterThan(1000);
    expect(library.exports.take(answer.url.split('/').at(-1) as string)).toBeNull();
  });

  it('takes the filter alone: a list of ids, or a path, is refused by the bridge', () => {
    const args = downloadsCalls['downloads.exportCsv'].args;
    expect(args.safeParse([{ filter: {}, path: '/etc/passwd' }]).success).toBe(false);
    expect(args.safeParse([{ filter: {}, jobIds: ['job-1'] }]).success).toBe(false);
    expect(args.safeParse([{ filter: { ids: Array.from({ length: MANY }, (_, n) => jobId(n)) } }]).success).toBe(false);
  });
});

describe('a selection of more jobs than the bridge lists, previewed and renamed', () => {
  const selection = { filter: {}, except: [jobId(1)] };

  it('previews the first page of names and says more follow, instead of refusing', async () => {
    const { bridge } = domainWith({});
    const preview = (await bridge('downloads.preview', { jobIds: [], selection, template: '{id}' })) as {
      rows: { jobId: string; name: string | null }[];
      more: boolean;
    };
    expect(preview.more).toBe(true);
    expect(preview.rows.length).toBeLessThanOrEqual(PREVIEW_JOBS);
    expect(preview.rows.slice(0, 2).map((r) => r.jobId)).toEqual([jobId(0), jobId(2)]);
  });

  it('renames the saved copies of every job of the selection, walking its pages', async () => {
    const renamed = vi.spyOn(service, 'renameCopies');
    const { bridge } = domainWith({});
    const answer = (await bridge('downloads.rename', { jobIds: [], selection, template: 'renamed/{id}' })) as {
      moved: number;
      skipped: number;
      reasons: { jobId: string; reason: string }[];
    };
    // The recorded copies are not on disk here: each job is looked at and says why it was not moved.
    expect(answer).toMatchObject({ moved: 0, skipped: MANY - 1 });
    expect(answer.reasons).toHaveLength(20);
    expect(renamed.mock.calls.length).toBeGreaterThan(1);
    expect(Math.max(...renamed.mock.calls.map(([ids]) => ids.length))).toBeLessThanOrEqual(MAX_PAGE_JOBS);
    expect(renamed.mock.calls.flatMap(([ids]) => ids)).not.toContain(jobId(1));
  });
});

describe("the web host's exports not fetched", () => {
  it('are forgotten and removed after an hour, with files an earlier run left', async () => {
    let now = NOW;
    const folder = join(dir, 'sweep');
    const exports = new ExportFiles(folder, () => now);
    const first = await exports.create('library.csv');
    writeFileSync(first.path, 'x');
    exports.offer(first.id, first);
    writeFileSync(join(folder, 'left-by-a-crash.csv'), 'y');
    const hourAgo = new Date(NOW - 2 * 3_600_000);
    utimesSync(first.path, hourAgo, hourAgo);
    utimesSync(join(folder, 'left-by-a-crash.csv'), hourAgo, hourAgo);
    // Within the hour, kept: offered, and on disk whatever its age.
    now = NOW + 30 * 60_000;
    await exports.create('library.csv');
    expect(readdirSync(folder)).toEqual([`${first.id}.csv`]);
    now = NOW + 2 * 3_600_000;
    await exports.create('library.csv');
    expect(readdirSync(folder)).toEqual([]);
    expect(exports.take(first.id)).toBeNull();
  });
});
