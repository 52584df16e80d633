// "Export CSV" of a large Library, measured host-side: a records folder of N completed jobs (every
// tenth of a project, a few with saved copies), exported through the downloads domain's call as the
// desktop app makes it (its save dialog answering a path). Says how long it took, the file's lines,
// and the process's RSS and heap before and at their highest (sampled between pages).
// Run alone: node --import tsx test/bench/library-export.measure.ts [jobs]   (default 200,000).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDownloadsDomain } from '../../electron/services/downloads/downloads-domain';
import { libraryQuestions } from '../../electron/services/host/library-questions';
import { createMemoryHostBase } from '../../electron/services/host/memory-host';
import { openRecordsDatabase } from '../../electron/services/records/database';
import { SqlJobQueries } from '../../electron/services/records/job-queries';
import { jobColumns, PUT_JOB } from '../../electron/services/records/sqlite-ledger';
import { recordSavedCopies } from '../unit/records/download-fixtures';
import { jobId, madeUpJob, NOW, selectionService } from '../unit/downloads/selection-fixture';

const JOBS = Number(process.argv[2] ?? 200_000);
const MB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'measure-library-export-'));
let started = Date.now();
const database = openRecordsDatabase({ dataDir: dir });
const put = database.db.prepare(PUT_JOB);
for (let from = 0; from < JOBS; from += 10_000)
  database.db.transaction(() => {
    for (let n = from; n < Math.min(JOBS, from + 10_000); n += 1) {
      const job = { ...madeUpJob(jobId(n)), createdAt: NOW - n * 1000, summary: `Clip ${n}` };
      if (n % 10 === 0) job.projectId = `p${n % 7}`;
      put.run(job.id, JSON.stringify(job), ...jobColumns(job));
    }
  })();
recordSavedCopies(
  database.db,
  Array.from({ length: 1000 }, (_, n) => jobId(n * 7)),
);
database.close();
console.log(`seeded ${JOBS.toLocaleString('en')} jobs in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const service = selectionService(dir);
await service.ready;
const reader = openRecordsDatabase({ dataDir: dir, readOnly: true });
if (!reader) throw new Error('no database');
const library = libraryQuestions({
  dataDir: dir,
  queries: new SqlJobQueries(reader.db, () => NOW),
  flush: async () => undefined,
  knownCopies: async () => ({ savedInDownloads: true }),
  projectName: async (id) => `Project ${id}`,
});
const target = join(dir, 'library.csv');
const base = createMemoryHostBase({ dataDir: dir, platform: { chooseSavePath: async () => target } });
const media = { probe: async () => ({}) as never, frame: async () => Buffer.alloc(0) };
const domain = createDownloadsDomain(base, service, { archive: {} as never, start() {}, stop() {} }, media, library);

global.gc?.();
const before = process.memoryUsage();
const peak = { rss: before.rss, heap: before.heapUsed };
const sample = () => {
  const now = process.memoryUsage();
  peak.rss = Math.max(peak.rss, now.rss);
  peak.heap = Math.max(peak.heap, now.heapUsed);
};
const sampler = setInterval(sample, 20);
started = Date.now();
const answer = await domain.handlers['downloads.exportCsv']({ filter: {} });
const seconds = (Date.now() - started) / 1000;
clearInterval(sampler);
sample();
const lines = readFileSync(target, 'utf8').split('\r\n').length - 2;
console.log(
  `exported ${answer?.count.toLocaleString('en')} jobs (${lines.toLocaleString('en')} lines, ${(statSync(target).size / MB).toFixed(0)} MB) in ${seconds.toFixed(1)} s; ` +
    `RSS ${(before.rss / MB).toFixed(0)} MB before, ${(peak.rss / MB).toFixed(0)} MB at most; heap ${(before.heapUsed / MB).toFixed(0)} MB before, ${(peak.heap / MB).toFixed(0)} MB at most; load ${loadavg()[0].toFixed(1)}`,
);
reader.close();
await service.dispose();
rmSync(dir, { recursive: true, force: true });
