import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { Archive, archiveHome, defaultArchiveSettings } from '../../../electron/services/downloads/archive';
import { createArchive } from '../../../electron/services/downloads/downloads-domain';
import { JobReactor } from '../../../electron/services/jobs/reactor';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { appSettingsSpec } from '../../../electron/services/system/settings-store';
import { patternBytes } from './file-server';
import { HOUR, NOW, completedJob, fileServerForFile, silent } from './job-fixture';
import { recordsIn } from './queue-record';

const files = fileServerForFile();
const job = (id: string, patch: Partial<JobRecord> = {}) => completedJob(id, files.server.url(`/${id}.mp4`), patch);

describe('archive', () => {
  it('defaults to Videos and Music folders under the home folder, on', () => {
    expect(defaultArchiveSettings('/home/ada')).toMatchObject({
      enabled: true,
      videoFolder: '/home/ada/Videos/Avatar Studio',
      audioFolder: '/home/ada/Music/Avatar Studio',
    });
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
      job('a1', { kind: 'tts', resultUrl: files.server.url('/a1.mp3'), request: { input_text: 'Hello' } }),
      job('gone', { expiresAt: NOW - 1 }),
      job('running', { phase: 'processing', resultUrl: null }),
      job('soon', { expiresAt: NOW + 5 * HOUR }),
    ];
    for (const j of jobs)
      files.server.files.set(new URL(j.resultUrl ?? 'http://x/none').pathname, {
        body: patternBytes(3000, j.id.length),
        etag: `"${j.id}"`,
      });
    // The last one cannot be fetched: it stays unsaved and is what the expiry warning is about.
    files.server.files.set('/soon.mp4', { body: patternBytes(10), failFirst: { count: 99, status: 404 } });
    const createStore = createMemoryStoreFactory({ log: silent, notify: () => undefined });
    const downloads = new DownloadsService({
      dataDir: home,
      records: recordsIn(home),
      createStore,
      log: silent,
      now: () => NOW,
      job: (id) => jobs.find((j) => j.id === id)!,
      projectName: async () => null,
    });
    const warnings: string[] = [];
    const archive = new Archive({
      downloads,
      createStore,
      jobs: () => jobs,
      log: silent,
      now: () => NOW,
      warn: (title, body) => void warnings.push(`${title} | ${body}`),
    });
    archive.settings.set({ ...defaultArchiveSettings(home), template: '{kind}/{text|id}' });

    await archive.sync();
    await archive.sync();
    await downloads.manager.whenIdle();
    expect(readdirSync(join(home, 'Videos', 'Avatar Studio', 'Avatar video')).sort()).toEqual(['Clip v1.mp4']);
    expect(readdirSync(join(home, 'Music', 'Avatar Studio', 'Speech'))).toEqual(['Hello.mp3']);
    expect(
      downloads.manager.lookup
        .ofJobs(jobs.map((j) => j.id))
        .flat()
        .map((d) => d.jobId)
        .sort(),
    ).toEqual(['a1', 'soon', 'v1']);

    expect(await archive.warnExpiring()).toEqual(['soon']);
    expect(warnings).toEqual([
      '1 result expires within 24 hours unsaved | Job soon. Select them in the Library and choose Download… to keep a copy.',
    ]);
    expect(await archive.warnExpiring()).toEqual([]);

    // A job completing later is archived by the next sync; switched off, nothing is queued.
    jobs.push(job('v2'));
    files.server.files.set('/v2.mp4', { body: patternBytes(2000, 9), etag: '"v2"' });
    archive.settings.set({ ...archive.settings.get(), enabled: false });
    await archive.sync();
    expect(downloads.manager.forJob('v2')).toEqual([]);
    archive.settings.set({ ...archive.settings.get(), enabled: true });
    await archive.sync();
    await downloads.manager.whenIdle();
    expect(readdirSync(join(home, 'Videos', 'Avatar Studio', 'Avatar video')).sort()).toEqual([
      'Clip v1.mp4',
      'Clip v2.mp4',
    ]);
    await downloads.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('archives a result through the reactor, and one whose archiving failed is tried again at the next start', async () => {
    const home = mkdtempSync(join(tmpdir(), 'archive-reactor-'));
    const records: JobRecord[] = [job('r1')];
    files.server.files.set('/r1.mp4', { body: patternBytes(1500, 4), etag: '"r1"' });
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
    const downloads = new DownloadsService({
      dataDir: home,
      records: recordsIn(home),
      createStore: base.createStore,
      log: silent,
      now: () => NOW,
      job: engine.record,
      projectName: async () => null,
    });
    // The video folder cannot be made (a file stands where it would be), so the first start fails to archive.
    writeFileSync(join(home, 'blocked'), 'a file');
    const run = () => {
      const reactor = new JobReactor({ engine });
      const runner = createArchive(base, downloads, { jobs: engine as never, reactor });
      return { reactor, runner };
    };
    const first = run();
    first.runner.archive.settings.set({
      ...defaultArchiveSettings(home),
      videoFolder: join(home, 'blocked', 'videos'),
      template: '{text|id}',
    });
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

  it('says an archive warning in the page, and asks for a system notification only where the user keeps them on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'archive-notify-'));
    // The archive reads the downloads' clock (NOW here), as every host composes them.
    const records = [job('late', { expiresAt: NOW + 2 * HOUR })];
    const engine = {
      records: () => records,
      record: (id: string) => records.find((j) => j.id === id)!,
      subscribeRecords: () => () => undefined,
      markReacted: async () => undefined,
    };
    const shown: string[] = [];
    const on = createMemoryHostBase({ dataDir: home });
    const off = createMemoryHostBase({ dataDir: home });
    const desktop = createMemoryHostBase({ dataDir: home, platform: { notify: (title) => void shown.push(title) } });
    // No page listens here: the notices wait for the page to take them.
    const noticesOf = (base: typeof on) => base.notices.takePending();
    for (const [base, notifications] of [
      [on, true],
      [off, false],
      [desktop, true],
    ] as const) {
      base.createStore(appSettingsSpec).update((s) => ({ ...s, notifications }));
      const downloads = new DownloadsService({
        dataDir: home,
        records: recordsIn(home),
        createStore: base.createStore,
        log: silent,
        now: () => NOW,
        job: engine.record,
        projectName: async () => null,
      });
      const { archive } = createArchive(base, downloads, {
        jobs: engine as never,
        reactor: new JobReactor({ engine }),
      });
      await archive.warnExpiring();
      await downloads.dispose();
    }
    const title = '1 result expires within 24 hours unsaved';
    const warning = { level: 'warning', title, detail: expect.stringContaining('Job late') };
    // In the web page: a system notification where the browser allows it, unless the user turned them off.
    expect(noticesOf(on)).toEqual([{ ...warning, system: true }]);
    expect(noticesOf(off)).toEqual([{ ...warning, system: false }]);
    // The desktop host shows its own, and its page a notice with nothing more to do.
    expect(shown).toEqual([title]);
    expect(noticesOf(desktop)).toEqual([warning]);
    rmSync(home, { recursive: true, force: true });
  });
});
