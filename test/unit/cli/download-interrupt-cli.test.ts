// Ctrl-C during `studio download` says what it left, as it is (issue 66: it said "run the same command
// again to resume" while the open studio finished the files by itself). Alone, the command pauses its
// downloads: what finished is named, the partly downloaded file stays as .part, and a second run
// finishes it. Beside an open studio, the studio goes on with them and the words say so.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { archiveSettingsSpec } from '../../../electron/services/downloads/archive';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { completedJob, silent } from '../downloads/job-fixture';
import { startFileServer, type FileServer, type ServedFile } from '../downloads/file-server';
import { HANG_GUARD_MS, until } from '../../wait';
import { startOwner } from './owner-fixture';
import { cliProcess, exitWithin, whenSaid } from './queue-processes';

const dir = mkdtempSync(join(tmpdir(), 'studio-download-interrupt-'));
let server: FileServer;
let clip: Buffer;

beforeAll(async () => {
  server = await startFileServer();
  // About a megabyte, so a throttled copy is surely still under way when the test presses Ctrl-C.
  const path = join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '2'],
    ...['-b:v', '4M', '-pix_fmt', 'yuv420p', path],
  ]);
  clip = readFileSync(path);
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A data folder holding two finished results of a remote connection (archive off: only the command saves). */
async function dataFolder(name: string): Promise<{ dataDir: string; slow: ServedFile }> {
  const dataDir = join(dir, name);
  mkdirSync(dataDir);
  createConfStoreFactory(dataDir, { log: silent, notify: () => undefined })(archiveSettingsSpec).set({
    ...archiveSettingsSpec.defaults,
    enabled: false,
  });
  const ledger = openLedger(dataDir);
  const job = (id: string): JobRecord =>
    completedJob(id, server.url(`/${name}-${id}.mp4`), {
      connectionId: 'remote',
      expiresAt: Date.now() + 86_400_000,
      reactedAt: Date.now(),
    });
  await ledger.put(job('fast'));
  await ledger.put(job('slow'));
  await ledger.flush();
  // The slow one sends a 16 KiB slice every 4 s until the test lets it go.
  const slow: ServedFile = { body: clip, throttle: 4_000 };
  server.files.set(`/${name}-fast.mp4`, { body: clip });
  server.files.set(`/${name}-slow.mp4`, slow);
  return { dataDir, slow };
}

describe('Ctrl-C during studio download', () => {
  it('alone: names what finished, keeps the partly downloaded file paused, and the next run finishes it', async () => {
    const { dataDir, slow } = await dataFolder('alone');
    const out = join(dir, 'alone-out');
    const args = ['download', 'fast', 'slow', '--out', out, '--template', '{id}', '--data-dir', dataDir];
    const run = cliProcess(args, {});
    await until(
      'the fast copy saved and the slow one under way',
      () => existsSync(join(out, 'r-fast.mp4')) && existsSync(join(out, 'r-slow.mp4.part')),
    );
    run.child.kill('SIGINT');
    expect(await exitWithin(run, HANG_GUARD_MS, 'the interrupted download')).toBe(EXIT.failed);
    expect(run.printed().trim()).toBe(join(out, 'r-fast.mp4'));
    expect(run.said()).toContain(
      `Interrupted: 1 of 2 saved (listed above). 1 file partly downloaded is kept and paused: ${join(out, 'r-slow.mp4.part')}. Run the same command again to finish it.`,
    );
    expect(run.said()).not.toContain('resume the partial files');
    expect(existsSync(join(out, 'r-slow.mp4.part'))).toBe(true);
    expect(readFileSync(join(out, 'r-fast.mp4')).equals(clip)).toBe(true);

    // As said: the same command again finishes it from where it stopped.
    delete slow.throttle;
    const lines: string[] = [];
    const again = await runCli(args, { out: (t) => lines.push(t), err: () => undefined, env: {}, cwd: dir });
    expect(again).toBe(EXIT.ok);
    expect(readFileSync(join(out, 'r-slow.mp4')).equals(clip)).toBe(true);
    expect(existsSync(join(out, 'r-slow.mp4.part'))).toBe(false);
  }, 120_000);

  it('beside an open studio: says the studio goes on with the rest, and it does', async () => {
    const { dataDir, slow } = await dataFolder('beside');
    const owner = await startOwner({ dataDir });
    try {
      const out = join(dir, 'beside-out');
      const run = cliProcess(
        ['download', 'fast', 'slow', '--out', out, '--template', '{id}', '--data-dir', dataDir],
        {},
      );
      await whenSaid(run, 'through the web host that has the data folder open');
      await until(
        'the fast copy saved and the slow one under way',
        () => existsSync(join(out, 'r-fast.mp4')) && existsSync(join(out, 'r-slow.mp4.part')),
      );
      run.child.kill('SIGINT');
      expect(await exitWithin(run, HANG_GUARD_MS, 'the interrupted download')).toBe(EXIT.failed);
      expect(run.said()).toContain(
        'Interrupted: 1 of 2 saved (listed above). The web host that has the data folder open goes on with the other 1 file; its Library shows them, so there is nothing to run again.',
      );
      expect(run.said()).not.toContain('Run the same command again');
      // And it does, with nobody running anything again.
      delete slow.throttle;
      await until('the studio to finish the slow copy', () => existsSync(join(out, 'r-slow.mp4')));
      expect(readFileSync(join(out, 'r-slow.mp4')).equals(clip)).toBe(true);
    } finally {
      await owner.close();
    }
  }, 120_000);
});
