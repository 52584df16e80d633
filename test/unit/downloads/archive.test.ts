import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { Archive, archiveHome, defaultArchiveSettings } from '../../../electron/services/downloads/archive';
import { createArchive } from '../../../electron/services/downloads/downloads-domain';
import { JobReactor } from '../../../electron/services/jobs/reactor';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { patternBytes, startFileServer, type FileServer } from './file-server';

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(() => server.close());

const NOW = Date.parse('2026-11-22T10:00:00Z');
const HOUR = 3_600_000;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function job(id: string, patch: Partial<JobRecord> = {}): JobRecord {
  return {
    id, kind: 'avatar-video', phase: 'completed', remoteId: `r-${id}`, connectionId: 'sandbox', connectionName: 'Sandbox', projectId: null,
    summary: `Job ${id}`, requestHash: '', request: { text: `Clip ${id}` }, createdAt: NOW - HOUR, updatedAt: NOW, finishedAt: NOW - HOUR,
    expiresAt: NOW + 100 * HOUR, deadlineAt: NOW, remoteStatus: 3, resultUrl: server.url(`/${id}.mp4`), costEstimate: null,
    chargedCredits: null, error: null, answer: null, polls: 1, purpose: { type: 'plain' }, reactedAt: null, ...patch,
  };
}

describe('archive', () => {
  it('defaults to Videos and Music folders under the home folder, on', () => {
    expect(defaultArchiveSettings('/home/ada')).toMatchObject({ enabled: true, videoFolder: '/home/ada/Videos/Avatar Studio', audioFolder: '/home/ada/Music/Avatar Studio' });
  });

  it('follows a data folder that was given, and the home folder for the default one', () => {
    const standard = '/home/ada/.config/Avatar Studio';
    expect(archiveHome('/work/client-a', standard, {})).toBe('/work/client-a');
    expect(archiveHome(standard, standard, {})).not.toBe(standard);
    expect(archiveHome('/work/client-a', standard, { STUDIO_ARCHIVE_HOME: '/tmp/t' })).toBe('/tmp/t');
  });

  it('catches up on completed results by kind, queues each job once, and warns once about results expiring unsaved', async () => {
    const home = mkdtempSync(join(tmpdir(), 'archive-'));
    const jobs: JobRecord[] = [
      job('v1'),
      job('a1', { kind: 'tts', resultUrl: server.url('/a1.mp3'), request: { input_text: 'Hello' } }),
      job('gone', { expiresAt: NOW - 1 }),
      job('running', { phase: 'processing', resultUrl: null }),
      job('soon', { expiresAt: NOW + 5 * HOUR }),
    ];
    for (const j of jobs) server.files.set(new URL(j.resultUrl ?? 'http://x/none').pathname, { body: patternBytes(3000, j.id.length), etag: `"${j.id}"` });
    // The last one cannot be fetched: it stays unsaved and is what the expiry warning is about.
    server.files.set('/soon.mp4', { body: patternBytes(10), failFirst: { count: 99, status: 404 } });
    const createStore = createMemoryStoreFactory({ log: silent, notify: () => undefined });
    const downloads = new DownloadsService({ dataDir: home, createStore, log: silent, now: () => NOW, job: (id) => jobs.find((j) => j.id === id)!, projectName: async () => null });
    const warnings: string[] = [];
    const archive = new Archive({ downloads, createStore, jobs: () => jobs, log: silent, now: () => NOW, warn: (title, body) => void warnings.push(`${title} | ${body}`) });
    archive.settings.set({ ...defaultArchiveSettings(home), template: '{kind}/{text|id}' });

    await archive.sync();
    await archive.sync();
    await downloads.manager.whenIdle();
    expect(readdirSync(join(home, 'Videos', 'Avatar Studio', 'Avatar video')).sort()).toEqual(['Clip v1.mp4']);
    expect(readdirSync(join(home, 'Music', 'Avatar Studio', 'Speech'))).toEqual(['Hello.mp3']);
    expect(downloads.manager.list().map((d) => d.jobId).sort()).toEqual(['a1', 'soon', 'v1']);

    expect(await archive.warnExpiring()).toEqual(['soon']);
    expect(warnings).toEqual(['1 result expires within 24 hours unsaved | Job soon. Select them in the Library and choose Download… to keep a copy.']);
    expect(await archive.warnExpiring()).toEqual([]);

    // A job completing later is archived by the next sync; switched off, nothing is queued.
    jobs.push(job('v2'));
    server.files.set('/v2.mp4', { body: patternBytes(2000, 9), etag: '"v2"' });
    archive.settings.set({ ...archive.settings.get(), enabled: false });
    await archive.sync();
    expect(downloads.manager.forJob('v2')).toEqual([]);
    archive.settings.set({ ...archive.settings.get(), enabled: true });
    await archive.sync();
    await downloads.manager.whenIdle();
    expect(readdirSync(join(home, 'Videos', 'Avatar Studio', 'Avatar video')).sort()).toEqual(['Clip v1.mp4', 'Clip v2.mp4']);
    await downloads.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('archives a result through the reactor, and one whose archiving failed is tried again at the next start', async () => {
    const home = mkdtempSync(join(tmpdir(), 'archive-reactor-'));
    const records: JobRecord[] = [job('r1')];
    server.files.set('/r1.mp4', { body: patternBytes(1500, 4), etag: '"r1"' });
    const marked: string[] = [];
    const engine = {
      records: () => records,
      record: (id: string) => records.find((j) => j.id === id)!,
      subscribeRecords: () => () => undefined,
      markReacted: async (id: string) => {
        marked.push(id);
        records.find((j) => j.id === id)!.reactedAt = NOW;
      },
    };
    const base = createMemoryHostBase({ dataDir: home });
    const downloads = new DownloadsService({ dataDir: home, createStore: base.createStore, log: silent, now: () => NOW, job: engine.record, projectName: async () => null });
    // The video folder cannot be made (a file stands where it would be), so the first start fails to archive.
    writeFileSync(join(home, 'blocked'), 'a file');
    const run = () => {
      const reactor = new JobReactor({ engine });
      const runner = createArchive(base, downloads, { jobs: engine as never, reactor });
      return { reactor, runner };
    };
    const first = run();
    first.runner.archive.settings.set({ ...defaultArchiveSettings(home), videoFolder: join(home, 'blocked', 'videos'), template: '{text|id}' });
    first.reactor.start();
    await first.reactor.idle();
    expect(marked).toEqual([]);
    expect(downloads.manager.forJob('r1')).toEqual([]);
    first.reactor.stop();

    const second = run();
    second.runner.archive.settings.set({ ...second.runner.archive.settings.get(), videoFolder: join(home, 'videos') });
    second.reactor.start();
    await second.reactor.idle();
    await downloads.manager.whenIdle();
    expect(marked).toEqual(['r1']);
    expect(readdirSync(join(home, 'videos'))).toEqual(['Clip r1.mp4']);
    await downloads.dispose();
    rmSync(home, { recursive: true, force: true });
  });
});
