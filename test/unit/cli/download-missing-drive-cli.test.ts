// `download --missing` and a drive that is gone (issue 66): a copy saved on a drive (a folder on /dev/shm's
// tmpfs behind a link) whose mount point is now an empty folder on /tmp's disk is named, not restored,
// with why; nothing is written into the mount point, and the command ends rather than waiting for the
// drive. With the drive back, nothing is lost.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { skipUnless } from '../../environment-bound';
import { completedJob } from '../downloads/job-fixture';
import { startFileServer, type FileServer } from '../downloads/file-server';

const dir = mkdtempSync(join(tmpdir(), 'studio-missing-drive-'));
const drive = mkdtempSync('/dev/shm/studio-missing-drive-');
const dataDir = join(dir, 'data');
const mountPoint = join(dir, 'Drive');
let server: FileServer;

beforeAll(async () => {
  server = await startFileServer();
  const clip = join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=160x90:d=1:r=10', '-pix_fmt', 'yuv420p', clip],
  ]);
  server.files.set('/a.mp4', { body: readFileSync(clip) });
  const ledger = openLedger(dataDir);
  await ledger.put(
    completedJob('a', server.url('/a.mp4'), { connectionId: 'remote', expiresAt: Date.now() + 86_400_000 }),
  );
  await ledger.flush();
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(drive, { recursive: true, force: true });
});

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {}, cwd: dir };
  const code = await runCli([...args, '--data-dir', dataDir], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('download --missing beside a missing drive', () => {
  it('names the copy on the missing drive, writes nothing in the mount point, and finds it when the drive is back', async (context) => {
    skipUnless(context, statSync(drive).dev !== statSync(dir).dev, 'a tmpfs at /dev/shm apart from /tmp');
    symlinkSync(drive, mountPoint);
    const saved = await run(['download', 'a', '--out', mountPoint, '--template', '{id}', '--json']);
    expect(saved.code, saved.err).toBe(EXIT.ok);
    expect(readdirSync(drive)).toEqual(['r-a.mp4']);

    // Unplugged: the mount point is an empty folder on the system disk.
    rmSync(mountPoint);
    mkdirSync(mountPoint);
    const json = await run(['download', '--missing', '--json']);
    expect(json.code, json.err).toBe(EXIT.failed);
    expect(JSON.parse(json.out)).toEqual([
      expect.objectContaining({
        jobId: 'a',
        state: 'skipped',
        path: join(mountPoint, 'r-a.mp4'),
        reason: `its drive is missing (a write into ${mountPoint} would land on another disk), so nothing is written in its place; connect the drive and run this again`,
      }),
    ]);
    const words = await run(['download', '--missing']);
    expect(words.code).toBe(EXIT.failed);
    expect(words.err).toContain(`a: not restored: ${join(mountPoint, 'r-a.mp4')}: its drive is missing`);
    expect(words.err).toContain('0 of 1 saved; 1 not.');
    expect(readdirSync(mountPoint)).toEqual([]);
    const shown = await run(['jobs', 'show', 'a']);
    expect(shown.out).toContain(`MISSING (its drive is missing) ${join(mountPoint, 'r-a.mp4')}`);

    // A file someone left in the mount point is not taken for the drive either.
    writeFileSync(join(mountPoint, 'note.txt'), 'the drive is at the office');
    expect((await run(['download', '--missing', '--json'])).code).toBe(EXIT.failed);
    expect(readdirSync(mountPoint)).toEqual(['note.txt']);

    // Plugged in again: the copy is there, and nothing is lost.
    rmSync(mountPoint, { recursive: true });
    symlinkSync(drive, mountPoint);
    const back = await run(['download', '--missing', '--json']);
    expect(back.code, back.err).toBe(EXIT.ok);
    expect(JSON.parse(back.out)).toEqual([]);
    expect(readdirSync(drive)).toEqual(['r-a.mp4']);
  }, 120_000);
});
