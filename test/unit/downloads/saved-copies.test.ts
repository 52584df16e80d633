// After a result's link expires, the studio keeps working from the copy it saved: the archive saves a
// completed job by itself, the link then answers 404, and the media calls the editor and previews use
// (probe, frame) read the saved file instead of the network, through the whole host (createDomains).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { archiveSettingsSpec } from '../../../electron/services/downloads/archive';
import { cliQueueFile } from '../../../electron/services/downloads/queue-file';
import { savedCopiesIn } from '../../../electron/services/records/sqlite-downloads';
import { recordsIn } from './queue-record';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { createDomains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { resolveMediaBinary } from '../../../electron/services/system/binaries';
import { startFileServer, type FileServer } from './file-server';
import { until } from '../../wait';

let server: FileServer;
let dataDir: string;
let clip: Buffer;

beforeAll(async () => {
  server = await startFileServer();
  dataDir = mkdtempSync(join(tmpdir(), 'saved-copies-'));
  const file = join(dataDir, 'clip.mp4');
  execFileSync((await resolveMediaBinary('ffmpeg')).path, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x180:rate=25',
    '-t',
    '2',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  clip = readFileSync(file);
  rmSync(file);
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A completed job of a service connection (not the sandbox), its result at `url`, not yet acted on by the reactor. */
function completedJob(n: string, url: string): JobRecord {
  const now = Date.now();
  return {
    id: `job-${n}`,
    kind: 'avatar-video',
    phase: 'completed',
    remoteId: `remote-${n}`,
    connectionId: 'remote',
    connectionName: 'Remote',
    projectId: null,
    summary: 'Avatar video · "Hello"',
    requestHash: `h${n}`,
    request: { text: 'Hello' },
    createdAt: now - 60_000,
    updatedAt: now,
    finishedAt: now - 30_000,
    expiresAt: now + 6 * 86_400_000,
    deadlineAt: now,
    remoteStatus: 3,
    resultUrl: url,
    costEstimate: null,
    chargedCredits: 10,
    error: null,
    answer: null,
    polls: 1,
    purpose: { type: 'plain' },
    reactedAt: null,
  };
}

describe('saved copies outlive their links', () => {
  it('probes and draws an archived result from disk once its link has expired, and only while the copy is intact', async () => {
    server.files.set('/result.mp4', { body: clip, etag: '"r1"' });
    const url = server.url('/result.mp4');
    await openLedger(dataDir).put(completedJob('1', url));

    const base = createMemoryHostBase({ dataDir });
    const videos = join(dataDir, 'Videos');
    base
      .createStore(archiveSettingsSpec)
      .set({ enabled: true, videoFolder: videos, audioFolder: join(dataDir, 'Music'), template: '{kind}/{id}' });
    const domains = createDomains(base);
    try {
      const { handlers } = domains;
      // The reactor's start-up catch-up runs the archive's reaction, which saves the completed result by itself.
      await until("job-1's download to be saved", async () =>
        (await handlers['downloads.ofJobs'](['job-1'])).some((d) => d.state === 'saved'),
      );
      const [saved] = await handlers['downloads.ofJobs'](['job-1']);
      expect(saved.savedPath).toBe(join(videos, 'Avatar video', 'remote-1.mp4'));
      expect(readFileSync(saved.savedPath as string).equals(clip)).toBe(true);

      // The service forgets the result: its link answers 404 from now on.
      server.files.delete('/result.mp4');
      const requestsBefore = server.log.length;
      const info = await handlers['media.probe'](url);
      expect(info.kind).toBe('video');
      expect(info.durationMs).toBeGreaterThan(1800);
      const frame = await handlers['media.frame'](url, { atMs: 500, width: 160 });
      expect(frame.dataUrl).toMatch(/^data:image\/jpeg;base64,/);
      expect(server.log.length).toBe(requestsBefore);

      // A copy changed since it was saved is not trusted: the link is asked, and it is gone.
      writeFileSync(saved.savedPath as string, clip.subarray(0, 1000));
      await expect(handlers['media.probe'](url)).rejects.toThrow(/HTTP 404/);
      expect(server.log.length).toBeGreaterThan(requestsBefore);
    } finally {
      await domains.disposeAll();
    }
  }, 120_000);

  it('reads a copy the command line saved (its own queue) in the app, and in any tool reading the data folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'saved-copies-cli-'));
    server.files.set('/cli-result.mp4', { body: clip, etag: '"c1"' });
    const url = server.url('/cli-result.mp4');
    const job = completedJob('2', url);
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    // What `studio download` of an earlier version did: its own queue, a file in the data folder.
    const cli = new DownloadsService({
      dataDir: folder,
      records: recordsIn(join(folder, 'earlier-cli')),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      job: () => job,
      projectName: async () => null,
    });
    await cli.start({ jobIds: ['job-2'], folder: join(folder, 'out'), template: '{id}', origin: 'cli' });
    await cli.manager.whenIdle();
    const entries = cli.manager.forJob('job-2');
    await cli.dispose();
    mkdirSync(join(folder, 'downloads'), { recursive: true });
    writeFileSync(cliQueueFile(folder), JSON.stringify({ version: 1, entries }));
    const path = join(folder, 'out', 'remote-2.mp4');
    expect(readFileSync(path).equals(clip)).toBe(true);

    server.files.delete('/cli-result.mp4');
    const base = createMemoryHostBase({ dataDir: folder });
    base
      .createStore(archiveSettingsSpec)
      .set({ enabled: false, videoFolder: join(folder, 'V'), audioFolder: join(folder, 'M'), template: '{id}' });
    const domains = createDomains(base);
    try {
      // Taken into the folder's records at the start: any tool reading the folder finds it by its link.
      expect(await savedCopiesIn(folder)(url)).toBe(path);
      const info = await domains.handlers['media.probe'](url);
      expect(info.durationMs).toBeGreaterThan(1800);
    } finally {
      await domains.disposeAll();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
