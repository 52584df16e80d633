import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { chooseJobs, parseSince } from '../../../electron/cli/commands/download';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';
import type { JobRecord, JobView } from '../../../electron/common/bridge/jobs';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { ProjectLibrary } from '../../../electron/services/projects/project-library';
import { setSceneCaptions } from '../../../electron/common/captions/caption-ops';
import { createProject } from '../../../electron/common/composition';
import { completedJob } from '../downloads/job-fixture';
import { startFileServer } from '../downloads/file-server';
import { recordsIn } from '../downloads/queue-record';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

let emulator: RunningEmulator;
let dataDir: string;
const ids: string[] = [];

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd: process.cwd() };
  return { io: value, out, err };
}

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 1,
    catalogueDir: join(tmpdir(), 'avatar-studio-test-catalogue'),
  });
  dataDir = mkdtempSync(join(tmpdir(), 'studio-download-cli-'));
  const client = new ServiceClient({
    baseUrl: emulator.url,
    credentials: { kind: 'api-key', apiKey: emulator.apiKey },
  });
  const engine = new JobEngine({
    storage: openLedger(dataDir),
    connections: {
      active: async () => ({ id: 'remote', name: 'Remote', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
  });
  engine.start();
  for (const text of ['First line to save.', 'Second line to save.']) {
    const result = await engine.submit({
      confirmation: { by: 'script' },
      kind: 'tts',
      body: { input_text: text, voice_id: 'sandbox_ava', rate: '50%' },
    });
    if (result.status !== 'submitted') throw new Error('seed job not submitted');
    ids.push(result.job.id);
  }
  await Promise.all(ids.map((id) => engine.waitFor(id, AbortSignal.timeout(60_000))));
  // One that fails at create (unreachable inputs): requested by id, it makes the run fail.
  const failed = await engine.submit({
    confirmation: { by: 'script' },
    kind: 'lipsync',
    body: { video_url: 'http://127.0.0.1:9/a.mp4', audio_url: 'http://127.0.0.1:9/a.mp3' },
  });
  if (failed.status === 'submitted') ids.push(failed.job.id);
  engine.stop();
  await engine.flush();
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('studio download', () => {
  it('saves every finished result with templated names, skips saved files on a rerun, and exits 1 when a requested file cannot be saved', async () => {
    const out = join(dataDir, 'out');
    const first = io();
    const code = await runCli(
      ['download', '--all', '--out', out, '--template', '{kind} - {text}', '--data-dir', dataDir, '--json'],
      first.io,
    );
    expect(first.err.join('\n')).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(first.out.join('')) as { state: string; path: string }[];
    expect(report.map((r) => r.state)).toEqual(['saved', 'saved']);
    expect(readdirSync(out).sort()).toEqual(['Speech - First line to save.mp3', 'Speech - Second line to save.mp3']);
    const before = statSync(join(out, 'Speech - First line to save.mp3')).mtimeMs;

    const again = io();
    expect(
      await runCli(
        ['download', '--all', '--out', out, '--template', '{kind} - {text}', '--data-dir', dataDir],
        again.io,
      ),
    ).toBe(0);
    expect(readdirSync(out)).toHaveLength(2);
    expect(statSync(join(out, 'Speech - First line to save.mp3')).mtimeMs).toBe(before);

    // A saved file deleted since is fetched again under the same name.
    rmSync(join(out, 'Speech - Second line to save.mp3'));
    expect(
      await runCli(
        ['download', ids[1].slice(0, 8), '--out', out, '--template', '{kind} - {text}', '--data-dir', dataDir],
        io().io,
      ),
    ).toBe(0);
    expect(existsSync(join(out, 'Speech - Second line to save.mp3'))).toBe(true);

    const withFailed = io();
    expect(await runCli(['download', ids[0], ids[2], '--out', out, '--data-dir', dataDir], withFailed.io)).toBe(1);
    expect(withFailed.err.join('\n')).toMatch(
      /skipped: The job failed; there is no result to download\.[\s\S]*1 of 2 saved; 1 not\./,
    );
  }, 120_000);

  it('from a fresh data folder, saves a result of the built-in sandbox, starting it (its links open only while it runs)', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'studio-download-cli-sandbox-'));
    try {
      const made = io();
      expect(
        await runCli(
          ['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Kept by the command line.', '--data-dir', fresh],
          made.io,
        ),
      ).toBe(0);
      // The tts command stopped its sandbox on exit; the download starts it again.
      const saved = io();
      const code = await runCli(
        [
          'download',
          '--all',
          '--out',
          join(fresh, 'out'),
          '--template',
          '{kind}/{text}',
          '--data-dir',
          fresh,
          '--json',
        ],
        saved.io,
      );
      expect(saved.err.join('\n')).toBe('');
      expect(code).toBe(0);
      expect((JSON.parse(saved.out.join('')) as { state: string }[]).map((r) => r.state)).toEqual(['saved']);
      expect(statSync(join(fresh, 'out', 'Speech', 'Kept by the command line.mp3')).size).toBeGreaterThan(1000);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 120_000);

  it('download --missing fetches every lost copy back where it was, beside the copies still on disk; jobs list --json carries the copies', async () => {
    // The copies the first test saved are gone; the app's archive then kept a copy of both results
    // (its own queue, beside the command line's).
    rmSync(join(dataDir, 'out'), { recursive: true, force: true });
    const listed = io();
    expect(await runCli(['jobs', 'list', '--json', '--data-dir', dataDir], listed.io)).toBe(0);
    // JSON Lines: one job per line.
    const views = listed.out.map(
      (line) => JSON.parse(line) as JobView & { copies: { state: string; path: string; origin: string }[] },
    );
    const archive = new DownloadsService({
      dataDir,
      records: recordsIn(dataDir),
      createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
      log: silent,
      job: (id) => views.find((v) => v.id === id) as unknown as JobRecord,
      projectName: async () => null,
    });
    const archived = join(dataDir, 'Music', 'Avatar Studio');
    await archive.start({ jobIds: ids.slice(0, 2), folder: archived, template: '{text}', origin: 'archive' });
    await archive.manager.whenIdle();
    await archive.dispose();
    rmSync(join(archived, 'Second line to save.mp3'));

    const fetched = io();
    expect(await runCli(['download', '--missing', '--json', '--data-dir', dataDir], fetched.io)).toBe(0);
    const report = JSON.parse(fetched.out.join('')) as { jobId: string; state: string; path: string }[];
    expect(report.filter((r) => r.path.startsWith(archived))).toEqual([
      expect.objectContaining({ jobId: ids[1], state: 'saved', path: join(archived, 'Second line to save.mp3') }),
    ]);
    expect(existsSync(join(archived, 'Second line to save.mp3'))).toBe(true);
    // The three downloads the first test made and this one deleted come back too, though the archive
    // keeps a copy of each result.
    const outCopies = report.filter((r) => r.path.startsWith(join(dataDir, 'out')));
    expect(outCopies.map((r) => r.state)).toEqual(['saved', 'saved', 'saved']);
    expect(readdirSync(join(dataDir, 'out'))).toHaveLength(3);
    expect(report).toHaveLength(4);
    // Nothing is missing now: a second run fetches nothing.
    const none = io();
    expect(await runCli(['download', '--missing', '--json', '--data-dir', dataDir], none.io)).toBe(0);
    expect(JSON.parse(none.out.join(''))).toEqual([]);

    const after = io();
    expect(await runCli(['jobs', 'list', '--json', '--data-dir', dataDir], after.io)).toBe(0);
    const second = after.out.map((line) => JSON.parse(line) as (typeof views)[number]).find((v) => v.id === ids[1])!;
    expect(
      second.copies.filter((c) => c.path === join(archived, 'Second line to save.mp3')).map((c) => c.state),
    ).toContain('saved');
    // The service's id names the job too (files are named with it).
    const shown = io();
    expect(await runCli(['jobs', 'show', second.remoteId!, '--json', '--data-dir', dataDir], shown.io)).toBe(0);
    expect((JSON.parse(shown.out.join('')) as { id: string }).id).toBe(ids[1]);
  }, 120_000);

  it('says what is wrong with the command line', async () => {
    const missing = io();
    expect(await runCli(['download', '--all', '--data-dir', dataDir], missing.io)).toBe(2);
    expect(missing.err.join('\n')).toMatch(/--out DIR is required: the folder to save into/);
    const both = io();
    expect(await runCli(['download', '--missing', '--all', '--data-dir', dataDir], both.io)).toBe(2);
    expect(both.err.join('\n')).toMatch(/--missing chooses the jobs itself/);
    const none = io();
    expect(await runCli(['download', '--out', join(dataDir, 'x'), '--data-dir', dataDir], none.io)).toBe(2);
    expect(none.err.join('\n')).toMatch(/Give job ids, or --all/);
    expect(() => parseSince('2 weeks')).toThrow(/like 2d, 12h or 30m/);
    expect(parseSince('2d')).toBe(172_800_000);
    const job = (id: string, kind: JobView['kind'], createdAt: number) =>
      ({ id, kind, createdAt, phase: 'completed' }) as JobView;
    const jobs = [job('a1', 'tts', 1000), job('b2', 'lipsync', 5000)];
    expect(chooseJobs(jobs, { positional: [], flags: { '--kind': 'lipsync' } }, 6000).map((j) => j.id)).toEqual(['b2']);
    expect(chooseJobs(jobs, { positional: [], flags: { '--since': '3s' } }, 6000).map((j) => j.id)).toEqual(['b2']);
    expect(() => chooseJobs(jobs, { positional: [], flags: { '--kind': 'movie' } }, 6000)).toThrow(
      /--kind must be one of/,
    );
  });

  // Fails when the command's downloads service is built without the project reader (no files beside).
  it('writes the .srt and .vtt of a captioned project beside its saved video, as the studio does', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'studio-download-cli-captions-'));
    const server = await startFileServer();
    try {
      const video = join(fresh, 'clip.mp4');
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'color=c=gray:s=160x90:d=1:r=10',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        video,
      ]);
      server.files.set('/result.mp4', { body: readFileSync(video) });
      const projects = new ProjectLibrary({
        dataDir: fresh,
        createStore: createConfStoreFactory(fresh, { log: silent, notify: () => undefined }),
      });
      const captioned = setSceneCaptions(
        createProject({ id: 'captioned', kind: 'avatar-video', output: '16:9-720p', name: 'Captioned' }),
        'scene-1',
        [{ text: 'Said by the command line.', startMs: 200, endMs: 1400 }],
      );
      await projects.save(captioned);
      const ledger = openLedger(fresh);
      await ledger.put(
        completedJob('vid-1', server.url('/result.mp4'), {
          projectId: 'captioned',
          connectionId: 'remote',
          createdAt: Date.now() - 60_000,
          expiresAt: Date.now() + 86_400_000,
        }),
      );
      await ledger.flush();

      const saved = io();
      expect(
        await runCli(
          ['download', 'vid-1', '--out', join(fresh, 'out'), '--template', '{project}', '--data-dir', fresh],
          saved.io,
        ),
      ).toBe(0);
      expect(readdirSync(join(fresh, 'out')).sort()).toEqual(['Captioned.mp4', 'Captioned.srt', 'Captioned.vtt']);
      expect(readFileSync(join(fresh, 'out', 'Captioned.srt'), 'utf8')).toBe(
        '1\n00:00:00,200 --> 00:00:01,400\nSaid by the command line.\n',
      );
      expect(readFileSync(join(fresh, 'out', 'Captioned.vtt'), 'utf8')).toContain(
        '00:00:00.200 --> 00:00:01.400\nSaid by the command line.',
      );
    } finally {
      await server.close();
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 120_000);
});
