// A writer that names its own file (a campaign row, a batch row, `--out FILE`) saves through the queue:
// the file keeps its exact name (an older file there is replaced, never numbered), an intact copy is not
// fetched twice, a lost or changed one comes back in its place, and a newer result saved under the same
// name takes the path from the older job's record instead of leaving it "changed".
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { patternBytes } from './file-server';
import { completedJob, fileServerForFile, NOW, silent } from './job-fixture';
import { recordsIn } from './queue-record';

const files = fileServerForFile();
const dir = mkdtempSync(join(tmpdir(), 'result-copies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function service(jobs: JobRecord[]): DownloadsService {
  return new DownloadsService({
    dataDir: join(dir, 'data'),
    records: recordsIn(join(dir, 'data')),
    createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
    log: silent,
    now: () => NOW,
    job: (id) => jobs.find((j) => j.id === id) as JobRecord,
    jobs: () => jobs,
    projectName: async () => null,
  });
}

const requestsFor = (path: string) => files.server.log.filter((r) => r.path === path).length;

describe('saving a result as a named file', () => {
  it('keeps the exact name, fetches an intact copy once, brings a lost or changed one back in place, and hands the path to a newer result', async () => {
    const { server } = files;
    server.files.set('/take1.mp4', { body: patternBytes(4000, 1), etag: '"1"' });
    server.files.set('/take2.mp4', { body: patternBytes(5000, 2), etag: '"2"' });
    const take1 = completedJob('take1', server.url('/take1.mp4'));
    const take2 = completedJob('take2', server.url('/take2.mp4'));
    const downloads = service([take1, take2]);
    const out = join(dir, 'camp');
    const target = join(out, '1 - Ana.mp4');
    // Something is already there under the row's name (an earlier run's file, unrecorded): it is replaced.
    await import('node:fs/promises').then((fs) => fs.mkdir(out, { recursive: true }));
    writeFileSync(target, 'an old file');

    expect(await downloads.copies.saveOrThrow({ jobId: 'take1', path: target, savedBy: 'campaign' })).toBe(true);
    expect(readdirSync(out)).toEqual(['1 - Ana.mp4']);
    expect(readFileSync(target).equals(patternBytes(4000, 1))).toBe(true);
    // Saved again while intact: answered from the record, nothing fetched.
    const before = requestsFor('/take1.mp4');
    expect(await downloads.copies.saveOrThrow({ jobId: 'take1', path: target, savedBy: 'campaign' })).toBe(false);
    expect(requestsFor('/take1.mp4')).toBe(before);
    // Changed on disk: fetched again over it, under the same name, in the same record.
    writeFileSync(target, 'edited by hand');
    expect(await downloads.copies.saveOrThrow({ jobId: 'take1', path: target, savedBy: 'campaign' })).toBe(true);
    expect(readFileSync(target).equals(patternBytes(4000, 1))).toBe(true);
    expect(readdirSync(out)).toEqual(['1 - Ana.mp4']);
    expect(downloads.manager.forJob('take1').map((d) => d.state)).toEqual(['saved']);

    // The row made again: its new take saved under the same name takes the path; the older take's
    // record no longer claims the file (so nothing would fetch the old take back over the new one).
    await downloads.copies.saveOrThrow({ jobId: 'take2', path: target, savedBy: 'campaign' });
    expect(readFileSync(target).equals(patternBytes(5000, 2))).toBe(true);
    expect(downloads.manager.forJob('take1').map((d) => d.state)).toEqual(['cancelled']);
    expect(downloads.manager.forJob('take2').map((d) => [d.state, d.savedPath, d.origin])).toEqual([
      ['saved', target, 'campaign'],
    ]);
    await downloads.dispose();
  });

  it('asked to keep others, leaves a file it did not save as it is, and still replaces its own earlier copy', async () => {
    const { server } = files;
    server.files.set('/mine1.mp4', { body: patternBytes(3000, 3), etag: '"3"' });
    server.files.set('/mine2.mp4', { body: patternBytes(3500, 4), etag: '"4"' });
    const downloads = service([
      completedJob('mine1', server.url('/mine1.mp4')),
      completedJob('mine2', server.url('/mine2.mp4')),
    ]);
    const out = join(dir, 'kept');
    await import('node:fs/promises').then((fs) => fs.mkdir(out, { recursive: true }));
    const theirs = join(out, '1 - Uma.mp4');
    writeFileSync(theirs, 'made by hand');
    await expect(
      downloads.copies.saveOrThrow({ jobId: 'mine1', path: theirs, savedBy: 'campaign', keepOthers: true }),
    ).rejects.toThrow(/"1 - Uma\.mp4" the studio did not save; it was left as it is/);
    expect(readFileSync(theirs, 'utf8')).toBe('made by hand');

    // Its own copy (an earlier take) is the studio's: the newer take replaces it.
    const own = join(out, '2 - Bo.mp4');
    await downloads.copies.saveOrThrow({ jobId: 'mine1', path: own, savedBy: 'campaign', keepOthers: true });
    await downloads.copies.saveOrThrow({ jobId: 'mine2', path: own, savedBy: 'campaign', keepOthers: true });
    expect(readFileSync(own).equals(patternBytes(3500, 4))).toBe(true);
    await downloads.dispose();
  });
});

describe('copies let go of from memory (a worker’s reported rows)', () => {
  // Issue 67: a worker saves a copy for every row it makes; once the row is reported its copies leave
  // memory, the record keeping them. A row made again into the same file must still find its own copy
  // there (not a stranger's file to leave alone), from the record.
  it('are held no more, and a file saved there again is known as the studio’s from the record', async () => {
    const { server } = files;
    server.files.set('/row1.mp4', { body: patternBytes(2000, 6), etag: '"6"' });
    server.files.set('/row1b.mp4', { body: patternBytes(2200, 7), etag: '"7"' });
    const downloads = service([
      completedJob('row1', server.url('/row1.mp4')),
      completedJob('row1b', server.url('/row1b.mp4')),
    ]);
    const target = join(dir, 'worker', '1 - Ana.mp4');
    await downloads.copies.saveOrThrow({ jobId: 'row1', path: target, savedBy: 'campaign', keepOthers: true });
    await downloads.manager.recorded();

    // Let go once recorded (issue 68: the manager holds only the downloads under way).
    expect(downloads.manager.heldCount).toBe(0);
    // Saved again, intact: answered from the record, nothing fetched.
    const before = requestsFor('/row1.mp4');
    expect(await downloads.copies.saveOrThrow({ jobId: 'row1', path: target, savedBy: 'campaign' })).toBe(false);
    expect(requestsFor('/row1.mp4')).toBe(before);

    // Its next take into the same file, asked to keep others' files: the file is the studio's, replaced.
    await downloads.manager.recorded();
    await downloads.copies.saveOrThrow({ jobId: 'row1b', path: target, savedBy: 'campaign', keepOthers: true });
    expect(readFileSync(target).equals(patternBytes(2200, 7))).toBe(true);
    await downloads.dispose();
  });
});

describe('a copy queued by a process that stopped before fetching it', () => {
  // A campaign run that paused (or crashed) while a row's video waited in the queue leaves it queued in
  // the queue's file. The next run, which opens the queue without starting what it holds (as the command
  // line does), saves that row again: the queued copy is started here, not waited on for ever.
  it('is fetched when its owner saves it again, even with the queue opened without resuming', async () => {
    const { server } = files;
    server.files.set('/left.mp4', { body: patternBytes(2500, 5), etag: '"5"' });
    const job = completedJob('left', server.url('/left.mp4'));
    const data = join(dir, 'left-data');
    const folder = join(dir, 'left');
    mkdirSync(join(data, 'downloads'), { recursive: true });
    const entry = {
      id: 'earlier-run',
      jobId: 'left',
      url: job.resultUrl,
      folder,
      relativeName: '1 - Left.mp4',
      requestedName: '1 - Left.mp4',
      state: 'queued',
      reason: null,
      bytes: 0,
      totalBytes: null,
      etag: null,
      lastModified: null,
      attempts: 0,
      savedPath: null,
      sha256: null,
      mtimeMs: null,
      verifiedAt: null,
      refetchedAt: null,
      origin: 'campaign',
      batchId: null,
      createdAt: NOW,
      updatedAt: NOW,
    };
    writeFileSync(join(data, 'downloads', 'queue.json'), JSON.stringify({ version: 1, entries: [entry] }));
    const downloads = new DownloadsService({
      dataDir: data,
      records: recordsIn(data),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      now: () => NOW,
      job: (id) => (id === 'left' ? job : (null as unknown as JobRecord)),
      jobs: () => [job],
      projectName: async () => null,
      resumeQueued: false,
    });
    const target = join(folder, '1 - Left.mp4');
    expect(await downloads.copies.saveOrThrow({ jobId: 'left', path: target, savedBy: 'campaign' })).toBe(true);
    expect(readFileSync(target).equals(patternBytes(2500, 5))).toBe(true);
    expect(downloads.manager.forJob('left').map((d) => [d.id, d.state])).toEqual([['earlier-run', 'saved']]);
    await downloads.dispose();
  });
});
