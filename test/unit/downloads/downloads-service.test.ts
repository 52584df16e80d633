import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { missingResults, savedCopiesIn } from '../../../electron/services/downloads/saved-report';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { patternBytes, startFileServer, type FileServer } from './file-server';
import { completedJob, NOW, silent } from './job-fixture';
import { recordsIn } from './queue-record';

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(() => server.close());

/** A completed speech of project p1, its result on the file server (what a test names changed). */
const job = (id: string, patch: Partial<JobRecord>): JobRecord =>
  completedJob(id, server.url(`/${id}.mp3`), {
    kind: 'tts',
    projectId: 'p1',
    summary: '',
    request: { voice_id: 'ada', input_text: 'Hello: world?' },
    finishedAt: NOW - 60_000,
    expiresAt: NOW + 6 * 86_400_000,
    ...patch,
  });

describe('downloads service', () => {
  it('names files from the template and the project name, and says why a job is skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-svc-'));
    const jobs = new Map([
      ['a', job('a', {})],
      ['b', job('b', { expiresAt: NOW - 1000 })],
      ['c', job('c', { phase: 'failed', resultUrl: null })],
    ]);
    const notices: string[] = [];
    server.files.set('/a.mp3', { body: patternBytes(5000), etag: '"a"' });
    const service = new DownloadsService({
      dataDir: dir,
      records: recordsIn(dir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      now: () => NOW,
      job: (id) => {
        const found = jobs.get(id);
        if (!found) throw new Error('none');
        return found;
      },
      projectName: async (id) => (id === 'p1' ? 'Launch / Q4' : null),
      notify: (title, body) => void notices.push(`${title}: ${body}`),
    });
    const result = await service.start({
      jobIds: ['a', 'b', 'c', 'zz'],
      folder: join(dir, 'out'),
      template: '{project} - {voice} - {text} #{row|id}',
      origin: 'library',
    });
    expect(result.skipped.map((s) => [s.jobId, s.reason])).toEqual([
      ['b', 'The result expired on 2026-11-22 09:59 UTC: the service keeps results for 7 days.'],
      ['c', 'The job failed; there is no result to download.'],
      ['zz', 'No such job in the library.'],
    ]);
    await service.manager.whenIdle();
    expect(readdirSync(join(dir, 'out'))).toEqual(['Launch - Q4 - ada - Hello_ world_ #r-a.mp3']);
    expect(
      readFileSync(join(dir, 'out', 'Launch - Q4 - ada - Hello_ world_ #r-a.mp3')).equals(patternBytes(5000)),
    ).toBe(true);
    expect(notices).toEqual([`1 download finished: Saved in ${join(dir, 'out')}.`]);
    expect(service.preferences.get().folder).toBe(join(dir, 'out'));

    // The same job into the same folder again: the existing download is answered, not a second copy.
    const again = await service.start({ jobIds: ['a'], folder: join(dir, 'out'), origin: 'library' });
    expect(again.queued[0].id).toBe(result.queued[0].id);
    await expect(service.start({ jobIds: ['a'], folder: 'relative/path', origin: 'library' })).rejects.toThrow(
      /not a full path/,
    );
    await expect(
      service.start({ jobIds: ['a'], folder: join(dir, 'out'), template: '{nope}', origin: 'library' }),
    ).rejects.toThrow(/uses \{nope\}/);
    await service.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the built-in sandbox before fetching one of its results, whose link opens only while it runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-sandbox-'));
    const body = patternBytes(4000, 5);
    let started = 0;
    const service = new DownloadsService({
      dataDir: dir,
      records: recordsIn(dir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      now: () => NOW,
      job: (id) => job(id, { connectionId: 'sandbox', resultUrl: server.url('/sandbox-result.mp3') }),
      projectName: async () => null,
      // The sandbox "starts": from now on its link answers.
      sandbox: async () => {
        started += 1;
        server.files.set('/sandbox-result.mp3', { body, etag: '"s"' });
      },
    });
    await service.start({ jobIds: ['s1'], folder: join(dir, 'out'), template: '{id}', origin: 'cli' });
    await service.manager.whenIdle();
    const [entry] = service.manager.forJob('s1');
    expect(entry.reason).toBeNull();
    expect(entry.state).toBe('saved');
    expect(started).toBe(1);
    expect(readFileSync(join(dir, 'out', 'r-s1.mp3')).equals(body)).toBe(true);
    await service.dispose();
    server.files.delete('/sandbox-result.mp3');
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetching a lost copy back takes up the download the archive check already restarted, not a second one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-restore-'));
    const body = patternBytes(6000, 3);
    server.files.set('/r.mp3', { body, etag: '"r"' });
    const service = new DownloadsService({
      dataDir: dir,
      records: recordsIn(dir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      now: () => NOW,
      job: (id) => job(id, { resultUrl: server.url('/r.mp3') }),
      projectName: async () => null,
    });
    const out = join(dir, 'kept');
    const [first] = (await service.start({ jobIds: ['r'], folder: out, template: '{id}', origin: 'cli' })).queued;
    await service.manager.whenIdle();
    rmSync(join(out, 'r-r.mp3'));
    // The archive's check finds it missing and fetches it again under its own name…
    expect((await service.checkCopies({ deep: false })).map((c) => c.state)).toEqual(['missing']);
    // …while `download --missing` asks for the same copy back.
    const back = await service.restore([{ jobId: 'r', folder: out, relativeName: 'r-r.mp3' }], 'cli');
    expect(back.map((v) => v.id)).toEqual([first.id]);
    await service.manager.whenIdle();
    expect(service.manager.forJob('r').map((d) => [d.id, d.state])).toEqual([[first.id, 'saved']]);
    expect(readdirSync(out)).toEqual(['r-r.mp3']);
    expect(readFileSync(join(out, 'r-r.mp3')).equals(body)).toBe(true);
    await service.dispose();
    server.files.delete('/r.mp3');
    rmSync(dir, { recursive: true, force: true });
  });

  it("tells what is saved from the owner's downloads, not from its record, which is written after it announces", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downloads-report-'));
    server.files.set('/q.mp3', { body: patternBytes(3000, 9), etag: '"q"' });
    const service = new DownloadsService({
      dataDir: dir,
      records: recordsIn(dir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      now: () => NOW,
      job: (id) => job(id, { resultUrl: server.url('/q.mp3') }),
      projectName: async () => null,
    });
    await service.start({ jobIds: ['q'], folder: join(dir, 'out'), template: '{id}', origin: 'cli' });
    await service.manager.whenIdle();
    // The record as a reader could still find it: the download under way, nothing saved yet.
    const live = service.manager.forJob('q');
    const stale = live.map((d) => ({ ...d, state: 'downloading' as const, savedPath: null, sha256: null }));
    const recorded = {
      entries: async (queue: string) => (queue === 'studio' ? stale : []),
      savedFrom: async () => [],
      ofJobs: async (ids: readonly string[], queue: string) =>
        queue === 'studio' ? stale.filter((d) => ids.includes(d.jobId)) : [],
      ofLinks: async () => [],
    };
    const copies = await savedCopiesIn(recorded, ['q'], live);
    expect(copies.get('q')?.map((c) => [c.state, c.path])).toEqual([['saved', join(dir, 'out', 'r-q.mp3')]]);
    expect(missingResults([job('q', { resultUrl: server.url('/q.mp3') })], copies, NOW)).toEqual([]);
    await service.dispose();
    server.files.delete('/q.mp3');
    rmSync(dir, { recursive: true, force: true });
  });
});
