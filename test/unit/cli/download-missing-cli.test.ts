import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { completedJob, silent } from '../downloads/job-fixture';
import { startFileServer, type FileServer } from '../downloads/file-server';
import { recordsIn } from '../downloads/queue-record';

const dir = mkdtempSync(join(tmpdir(), 'studio-download-missing-'));
const dataDir = join(dir, 'data');
const dl = join(dir, 'dl');
const archive = join(dataDir, 'archive');
let server: FileServer;
const colours = { a: 'red', b: 'green', c: 'blue' } as const;
const bytes = {} as Record<keyof typeof colours, Buffer>;

/** A one-second clip of one colour: the studio checks a saved result is readable media. */
function makeClip(colour: string): Buffer {
  const path = join(dir, `${colour}.mp4`);
  const source = `color=c=${colour}:s=160x90:d=1:r=10`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-pix_fmt', 'yuv420p', path]);
  return readFileSync(path);
}

/** A finished clip of the remote connection, its link working for a day more. */
const clip = (id: keyof typeof colours): JobRecord =>
  completedJob(id, server.url(`/${id}.mp4`), {
    connectionId: 'remote',
    createdAt: Date.now() - 60_000,
    finishedAt: Date.now() - 60_000,
    expiresAt: Date.now() + 86_400_000,
  });

async function addToLedger(...jobs: JobRecord[]): Promise<void> {
  const ledger = openLedger(dataDir);
  for (const job of jobs) await ledger.put(job);
  await ledger.flush();
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {}, cwd: dir };
  const code = await runCli([...args, '--data-dir', dataDir], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

type Line = { jobId: string; state: string; path: string | null; reason: string | null };

beforeAll(async () => {
  server = await startFileServer();
  for (const [id, colour] of Object.entries(colours)) {
    bytes[id as keyof typeof colours] = makeClip(colour);
    server.files.set(`/${id}.mp4`, { body: bytes[id as keyof typeof colours] });
  }
  await addToLedger(clip('a'), clip('b'));
  const saved = await run(['download', 'a', 'b', '--out', 'dl', '--template', '{id}', '--json']);
  if (saved.code !== EXIT.ok) throw new Error(`the first download failed: ${saved.err} ${saved.out}`);
  // The studio's archive also keeps a copy of b (its own record in the same download manager).
  const views = new Map([clip('a'), clip('b')].map((j) => [j.id, j]));
  const archiver = new DownloadsService({
    dataDir,
    records: recordsIn(dataDir),
    createStore: createMemoryStoreFactory({ log: silent, notify: () => undefined }),
    log: silent,
    job: (id) => views.get(id) as JobRecord,
    projectName: async () => null,
  });
  await archiver.start({ jobIds: ['b'], folder: archive, template: '{id}', origin: 'archive' });
  await archiver.manager.whenIdle();
  await archiver.dispose();
  if (!existsSync(join(archive, 'r-b.mp4'))) throw new Error('the archive copy was not saved');
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('download --missing', () => {
  it('puts each deleted copy back where it was, the one with an archive copy elsewhere too, and names each', async () => {
    rmSync(join(dl, 'r-a.mp4'));
    rmSync(join(dl, 'r-b.mp4'));
    const back = await run(['download', '--missing', '--json']);
    expect(back.code, back.err).toBe(EXIT.ok);
    const lines = JSON.parse(back.out) as Line[];
    expect(lines.map((l) => [l.jobId, l.state, l.path]).sort()).toEqual([
      ['a', 'saved', join(dl, 'r-a.mp4')],
      ['b', 'saved', join(dl, 'r-b.mp4')],
    ]);
    expect(readFileSync(join(dl, 'r-a.mp4')).equals(bytes.a)).toBe(true);
    // Before, b's archive copy made it "saved", and its deleted download stayed gone.
    expect(readFileSync(join(dl, 'r-b.mp4')).equals(bytes.b)).toBe(true);

    // In words: which copy goes back and why, then where it is.
    rmSync(join(dl, 'r-b.mp4'));
    const said = await run(['download', '--missing']);
    expect(said.code, said.err).toBe(EXIT.ok);
    expect(said.err).toContain(`Restoring ${join(dl, 'r-b.mp4')}: deleted or moved since it was saved.`);
    expect(said.out).toBe(join(dl, 'r-b.mp4'));

    const none = await run(['download', '--missing', '--json']);
    expect(none.code, none.err).toBe(EXIT.ok);
    expect(JSON.parse(none.out)).toEqual([]);
  }, 120_000);

  it('names each copy it does not restore and why; a result left with no verified copy fails the run', async () => {
    // The user edited the archive's copy of b (a's and b's downloads are whole), and c was never saved.
    appendFileSync(join(archive, 'r-b.mp4'), 'edited');
    await addToLedger(clip('c'));
    const named = await run(['download', '--missing', '--json']);
    expect(named.code, named.err).toBe(EXIT.failed);
    expect(JSON.parse(named.out) as Line[]).toEqual([
      expect.objectContaining({
        jobId: 'c',
        state: 'skipped',
        path: null,
        reason: 'never saved, so it has no place to go back to; give --out DIR to save it',
      }),
      expect.objectContaining({
        jobId: 'b',
        state: 'left',
        path: join(archive, 'r-b.mp4'),
        reason: 'changed on disk since it was saved, so it is left as it is',
      }),
    ]);
    expect(readFileSync(join(archive, 'r-b.mp4'), 'utf8').endsWith('edited')).toBe(true);

    const words = await run(['download', '--missing']);
    expect(words.code).toBe(EXIT.failed);
    expect(words.err).toContain(
      `b: not restored: ${join(archive, 'r-b.mp4')}: changed on disk since it was saved, so it is left as it is.`,
    );
    expect(words.err).toContain('c: not restored: never saved, so it has no place to go back to; give --out DIR');
    expect(words.err).toContain('0 of 1 saved; 1 not.');

    // With --out, the result with no verified copy is saved there.
    const saved = await run(['download', '--missing', '--out', 'later', '--template', '{id}', '--json']);
    expect(saved.code, saved.err).toBe(EXIT.ok);
    expect((JSON.parse(saved.out) as Line[]).map((l) => [l.jobId, l.state, l.path])).toEqual([
      ['c', 'saved', join(dir, 'later', 'r-c.mp4')],
    ]);
  }, 120_000);
});
