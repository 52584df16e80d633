// "Saved" means on disk now: each saved copy carries the hash taken as it was written; a copy deleted,
// moved away (an unmounted disk) or rewritten is found by the next check, shown as such, fetched again
// while the link works, and no longer counts for the expiry warning. Downloading again with another
// template makes a second copy; the same name in the same folder is answered as already saved.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DownloadEntry } from '../../../electron/common/bridge/downloads';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { Archive } from '../../../electron/services/downloads/archive';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { checkSaveFolder } from '../../../electron/services/downloads/save-folder';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { patternBytes } from './file-server';
import { HOUR, NOW, completedJob, fileServerForFile, silent } from './job-fixture';
import { recordsIn } from './queue-record';

const files = fileServerForFile();
const job = (id: string, patch: Partial<JobRecord> = {}) =>
  completedJob(id, files.server.url(`/truth-${id}.mp4`), {
    connectionId: 'elsewhere',
    connectionName: 'Service',
    ...patch,
  });

function setUp(jobs: JobRecord[]) {
  const dir = mkdtempSync(join(tmpdir(), 'copy-truth-'));
  const createStore = createMemoryStoreFactory({ log: silent, notify: () => undefined });
  const service = new DownloadsService({
    dataDir: dir,
    records: recordsIn(dir),
    createStore,
    log: silent,
    now: () => NOW,
    job: (id) => jobs.find((j) => j.id === id)!,
    projectName: async () => null,
  });
  return {
    dir,
    createStore,
    service,
    done: async () => {
      await service.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('saved copies are checked against what was written', () => {
  it('hashes while writing, finds a missing copy and fetches it again under its name, and a rewritten one beside it', async () => {
    const body = patternBytes(300_000, 7);
    files.server.files.set('/truth-a.mp4', { body, etag: '"a"' });
    const { dir, service, done } = setUp([job('a')]);
    try {
      const out = join(dir, 'out');
      const { queued } = await service.start({ jobIds: ['a'], folder: out, template: '{text}', origin: 'library' });
      await service.manager.whenIdle();
      const saved = service.manager.get(queued[0].id);
      expect(saved.state).toBe('saved');
      expect(saved.sha256).toBe(sha(body));

      // The folder goes away (as an unmounted disk does): the check says missing and fetches it again.
      renameSync(out, join(dir, 'unmounted'));
      const moved = await service.checkCopies({ deep: false });
      expect(moved.map((m) => m.state)).toEqual(['missing']);
      await service.manager.whenIdle();
      expect(service.manager.get(saved.id).state).toBe('saved');
      expect(readFileSync(join(out, 'Clip a.mp4')).equals(body)).toBe(true);

      // Same length, other bytes: changed. The user's file stays; a fresh copy is saved beside it.
      const edited = Buffer.from(body);
      edited[1000] ^= 0xff;
      writeFileSync(join(out, 'Clip a.mp4'), edited);
      expect((await service.checkCopies({ deep: false })).map((m) => m.state)).toEqual(['changed']);
      await service.manager.whenIdle();
      expect(readdirSync(out).sort()).toEqual(['Clip a (2).mp4', 'Clip a.mp4']);
      expect(readFileSync(join(out, 'Clip a (2).mp4')).equals(body)).toBe(true);
      expect(readFileSync(join(out, 'Clip a.mp4')).equals(edited)).toBe(true);
    } finally {
      await done();
    }
  });

  it('a deep check reads the bytes even when length and modification time look unchanged', async () => {
    const body = patternBytes(50_000, 9);
    files.server.files.set('/truth-d.mp4', { body, etag: '"d"' });
    const { dir, service, done } = setUp([job('d', { expiresAt: NOW - 1 })]);
    try {
      // An expired link: nothing can be fetched again, so the copy stays "changed".
      const entry = await service.manager.enqueue({
        jobId: 'd',
        url: files.server.url('/truth-d.mp4'),
        folder: dir,
        relativeName: 'd.mp4',
        origin: 'cli',
      });
      await service.manager.whenIdle();
      const before = service.manager.get(entry.id);
      const edited = Buffer.from(body);
      edited[0] ^= 1;
      writeFileSync(join(dir, 'd.mp4'), edited);
      // Pretend the edit kept the modification time (touch -r): only reading the bytes tells.
      const mtimeMs = (await import('node:fs')).statSync(join(dir, 'd.mp4')).mtimeMs;
      await service.manager.adopt([{ ...DownloadEntry.parse(service.manager.get(entry.id)), mtimeMs }]);
      expect(await service.checkCopies({ deep: false })).toEqual([]);
      expect((await service.checkCopies({ deep: true })).map((m) => m.state)).toEqual(['changed']);
      expect(service.manager.get(entry.id).sha256).toBe(before.sha256);
      expect(service.manager.forJob(entry.jobId)).toHaveLength(1);
    } finally {
      await done();
    }
  });

  it('the expiry warning counts only verified copies', async () => {
    const body = patternBytes(20_000, 3);
    // The link stops working once saved, so the lost copy cannot come back before the warning.
    files.server.files.set('/truth-soon.mp4', { body, etag: '"s"' });
    const jobs = [job('soon', { expiresAt: NOW + 5 * HOUR })];
    const { dir, createStore, service, done } = setUp(jobs);
    try {
      const warnings: string[] = [];
      const archive = new Archive({
        downloads: service,
        createStore,
        jobs: () => jobs,
        log: silent,
        now: () => NOW,
        warn: (title) => void warnings.push(title),
      });
      archive.settings.set({ ...archive.settings.get(), enabled: false });
      await service.start({ jobIds: ['soon'], folder: join(dir, 'out'), template: '{id}', origin: 'library' });
      await service.manager.whenIdle();
      expect(await archive.warnExpiring()).toEqual([]);
      files.server.files.set('/truth-soon.mp4', { body, failFirst: { count: 99, status: 404 } });
      // Rewritten at the same length: still "on disk", no longer the result.
      writeFileSync(join(dir, 'out', 'r-soon.mp4'), Buffer.alloc(body.length));
      expect(await archive.warnExpiring()).toEqual(['soon']);
      expect(warnings).toEqual(['1 result expires within 24 hours unsaved']);
    } finally {
      await done();
    }
  });
});

describe("copies are the user's choice", () => {
  it('another template in the same folder makes a second copy; the same name again is already saved', async () => {
    const body = patternBytes(10_000, 4);
    files.server.files.set('/truth-t.mp4', { body, etag: '"t"' });
    const { dir, service, done } = setUp([job('t')]);
    try {
      const out = join(dir, 'out');
      const first = await service.start({ jobIds: ['t'], folder: out, template: '{text}', origin: 'library' });
      await service.manager.whenIdle();
      expect(first.copies).toBe(0);
      const second = await service.start({ jobIds: ['t'], folder: out, template: '{id} - {text}', origin: 'library' });
      expect(second.copies).toBe(1);
      expect(second.already).toEqual([]);
      await service.manager.whenIdle();
      expect(readdirSync(out).sort()).toEqual(['Clip t.mp4', 'r-t - Clip t.mp4']);
      const third = await service.start({ jobIds: ['t'], folder: out, template: '{text}', origin: 'library' });
      expect(third.already).toEqual([first.queued[0].id]);
      expect(service.manager.forJob('t')).toHaveLength(2);
    } finally {
      await done();
    }
  });
});

describe('rename files', () => {
  it('moves saved copies to a new template without fetching, also after the link expired', async () => {
    const body = patternBytes(8000, 6);
    files.server.files.set('/truth-m.mp4', { body, etag: '"m"' });
    const jobs = [job('m')];
    const { dir, service, done } = setUp(jobs);
    try {
      const out = join(dir, 'out');
      await service.start({ jobIds: ['m'], folder: out, template: '{text}', origin: 'library' });
      await service.manager.whenIdle();
      const requests = files.server.log.length;
      jobs[0] = { ...jobs[0], expiresAt: NOW - 1 };
      const { moved, skipped } = await service.renameCopies(['m', 'nope'], '{kind}/{id} - {text}');
      expect(skipped).toEqual([{ jobId: 'nope', reason: 'No saved copy of it is on disk to rename.' }]);
      expect(moved.map((m) => m.relativeName)).toEqual(['Avatar video/r-m - Clip m.mp4']);
      expect(readdirSync(out)).toEqual(['Avatar video']);
      expect(readFileSync(join(out, 'Avatar video', 'r-m - Clip m.mp4')).equals(body)).toBe(true);
      expect(files.server.log.length).toBe(requests);
      // Still verified where it now is.
      expect(await service.checkCopies({ deep: true })).toEqual([]);
    } finally {
      await done();
    }
  });
});

describe('the folder check', () => {
  it('creates nothing while checking, and says the folder will be made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folder-check-'));
    try {
      const typed = join(dir, 'typed', 'Client');
      const answer = await checkSaveFolder(typed);
      expect(answer).toMatchObject({ ok: true, folder: typed });
      expect(answer.message).toMatch(/made when the download starts/);
      expect(existsSync(join(dir, 'typed'))).toBe(false);
      writeFileSync(join(dir, 'file'), 'x');
      expect((await checkSaveFolder(join(dir, 'file', 'sub'))).ok).toBe(false);
      expect((await checkSaveFolder(typed, { create: true })).ok).toBe(true);
      expect(existsSync(typed)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('notices when a run of downloads ends', () => {
  it('an archive catch-up of several results, or one that fails, is told; a single archived result is not', async () => {
    files.server.files.set('/truth-n1.mp4', { body: patternBytes(3000, 1), etag: '"n1"' });
    files.server.files.set('/truth-n2.mp4', { body: patternBytes(3000, 2), etag: '"n2"' });
    files.server.files.set('/truth-n3.mp4', { body: patternBytes(10), failFirst: { count: 99, status: 404 } });
    const jobs = [job('n1'), job('n2'), job('n3')];
    const dir = mkdtempSync(join(tmpdir(), 'copy-notices-'));
    const notices: string[] = [];
    const service = new DownloadsService({
      dataDir: dir,
      records: recordsIn(dir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      now: () => NOW,
      job: (id) => jobs.find((j) => j.id === id)!,
      projectName: async () => null,
      notify: (title, body) => void notices.push(`${title}: ${body}`),
    });
    try {
      await service.start({ jobIds: ['n1'], folder: join(dir, 'one'), template: '{id}', origin: 'archive' });
      await service.manager.whenIdle();
      expect(notices).toEqual([]);
      await service.start({ jobIds: ['n1', 'n2'], folder: join(dir, 'two'), template: '{id}', origin: 'archive' });
      await service.manager.whenIdle();
      expect(notices).toEqual([`2 archive copies finished: Saved in ${join(dir, 'two')}.`]);
      await service.start({ jobIds: ['n3'], folder: join(dir, 'three'), template: '{id}', origin: 'archive' });
      await service.manager.whenIdle();
      expect(notices.at(-1)).toBe(
        `1 archive copy failed: 0 saved in ${join(dir, 'three')}; 1 failed (the Library shows why).`,
      );
    } finally {
      await service.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
