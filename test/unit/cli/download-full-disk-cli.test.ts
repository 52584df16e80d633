// `studio download` into a full disk: the download waits for room (its partial file kept), and the
// command says so and ends (exit 1) instead of waiting with no word for room that nothing will make (a
// nightly script hung on it). The disk refuses writes past a byte budget with ENOSPC, as a real one does.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const disk = vi.hoisted(() => ({ folder: '', room: Number.POSITIVE_INFINITY }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fsp = await importOriginal<typeof import('node:fs/promises')>();
  const full = (): Error => Object.assign(new Error('ENOSPC: refused by the test disk'), { code: 'ENOSPC' });
  const onSmallDisk = (handle: FileHandle): FileHandle =>
    new Proxy(handle, {
      get(target, prop) {
        if (prop === 'write') {
          return async (buffer: Buffer, offset: number, length: number, position: number) => {
            const fits = Math.max(0, Math.min(length, disk.room));
            disk.room -= fits;
            if (fits === 0) throw full();
            return { bytesWritten: (await target.write(buffer, offset, fits, position)).bytesWritten, buffer };
          };
        }
        if (prop === 'writev') {
          return async (buffers: Buffer[]) => {
            const all = Buffer.concat(buffers);
            const fits = all.subarray(0, Math.max(0, Math.min(all.length, disk.room)));
            disk.room -= fits.length;
            if (fits.length === 0) throw full();
            return { bytesWritten: (await target.write(fits)).bytesWritten, buffers };
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const open = (async (...args: Parameters<typeof fsp.open>) => {
    if (typeof args[1] === 'number') args[1] &= ~(fsp.constants.O_DIRECT ?? 0);
    const handle = await fsp.open(...args);
    return disk.folder && String(args[0]).startsWith(disk.folder) ? onSmallDisk(handle) : handle;
  }) as typeof fsp.open;
  return { ...fsp, default: { ...fsp, open }, open };
});

import { EXIT } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { completedJob } from '../downloads/job-fixture';
import { startFileServer, type FileServer } from '../downloads/file-server';

const dir = mkdtempSync(join(tmpdir(), 'studio-download-full-'));
const dataDir = join(dir, 'data');
let server: FileServer;
let clip: Buffer;

/** A real clip of about 250 KB: the studio checks a saved result is readable media. */
function makeClip(): Buffer {
  const path = join(dir, 'clip.mp4');
  const source = ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25', '-t', '2', '-b:v', '1M'];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...source, '-pix_fmt', 'yuv420p', path]);
  return readFileSync(path);
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {}, cwd: dir };
  const code = await runCli([...args, '--data-dir', dataDir], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  server = await startFileServer();
  clip = makeClip();
  server.files.set('/big.mp4', { body: clip, etag: '"big"' });
  const ledger = openLedger(dataDir);
  await ledger.put(
    completedJob('big', server.url('/big.mp4'), { connectionId: 'remote', expiresAt: Date.now() + 86_400_000 }),
  );
  await ledger.flush();
});

afterAll(async () => {
  disk.folder = '';
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('download into a full disk', () => {
  it('ends naming the full disk and what to do, with the partial file kept, instead of waiting for ever', async () => {
    const out = join(dir, 'out');
    disk.folder = out;
    disk.room = 50_000;
    const full = await run(['download', 'big', '--out', 'out', '--template', '{id}']);
    expect(full.code, full.err).toBe(EXIT.failed);
    expect(full.err).toContain(`The disk holding ${out} is full.`);
    expect(full.err).toContain('0 of 1 saved; 1 not.');
    expect(full.err).toContain('once there is room (or the drive is back), run the same command again to finish them');
    expect(statSync(join(out, 'r-big.mp4.part')).size).toBe(50_000);
    expect(existsSync(join(out, 'r-big.mp4'))).toBe(false);

    // Room made, the same command finishes it: the whole file, verified.
    disk.room = Number.POSITIVE_INFINITY;
    const again = await run(['download', 'big', '--out', 'out', '--template', '{id}', '--json']);
    expect(again.code, again.err).toBe(EXIT.ok);
    expect(readFileSync(join(out, 'r-big.mp4')).equals(clip)).toBe(true);
  }, 60_000);
});
