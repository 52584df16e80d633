// `studio jobs list` asks the database for what it shows: --limit and the filters narrow it there, the
// table counts what it leaves out, and --json streams one job per line, with the folder read directly
// or through the studio that owns it, page by page.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../../electron/common/bridge/jobs';
import { runCli } from '../../../electron/cli/index';
import { createDomains } from '../../../electron/services/host/domains';
import { createDispatcher } from '../../../electron/services/host/dispatcher';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { openOwnerChannel, type OwnerChannel } from '../../../electron/services/host/owner-channel';
import { removeTempDirs, tempDir } from '../records/ledger-fixtures';
import { download } from '../records/download-fixtures';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { manyJob, seedJobs } from './many-jobs';

const root = join(import.meta.dirname, '..', '..', '..');
const NOW = Date.now();
const JOBS = 3_000;
let dataDir: string;

beforeAll(() => {
  dataDir = tempDir('studio-jobs-list-');
  seedJobs(dataDir, JOBS, NOW);
});
afterAll(removeTempDirs);

async function list(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['jobs', 'list', ...args, '--data-dir', dataDir], {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: {},
    cwd: dataDir,
  });
  return { code, out, err };
}

const lines = (out: string[]) => out.map((line) => JSON.parse(line) as JobView & { cost: string; copies: unknown[] });
const all = Array.from({ length: JOBS }, (_, i) => manyJob(i, NOW));
const newestFirst = (jobs: typeof all) =>
  [...jobs].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((job) => job.id);

describe('studio jobs list', () => {
  it('prints JSON Lines: one job per line, newest first, each with its cost in words and copies', async () => {
    const result = await list(['--json']);
    expect(result.code, result.err.join('\n')).toBe(0);
    expect(result.out).toHaveLength(JOBS);
    const jobs = lines(result.out);
    expect(jobs.map((job) => job.id)).toEqual(newestFirst(all));
    expect(jobs[0]).toMatchObject({ cost: expect.any(String), copies: [] });
  });

  it('gives each job its own saved copies, checked on disk, on every page of the stream', async () => {
    const dir = tempDir('studio-jobs-copies-');
    seedJobs(dir, 1_200, NOW);
    const kept = join(dir, 'kept.mp3');
    writeFileSync(kept, Buffer.alloc(1004));
    const records = openRecords(dir);
    // Jobs 4 and 1,100 lie on different pages of 500; job 700's copy was deleted since.
    await records.downloads.store.save([
      download(4, { jobId: manyJob(4, NOW).id, savedPath: kept, bytes: 1004 }),
      download(700, { jobId: manyJob(700, NOW).id, savedPath: join(dir, 'gone.mp3') }),
      download(1_100, { jobId: manyJob(1_100, NOW).id, savedPath: kept, bytes: 1004 }),
    ]);
    await records.downloads.store.close();
    records.ledger.close();
    const out: string[] = [];
    const code = await runCli(['jobs', 'list', '--json', '--data-dir', dir], {
      out: (t) => out.push(t),
      err: () => undefined,
      env: {},
      cwd: dir,
    });
    expect(code).toBe(0);
    const copies = new Map(lines(out).map((job) => [job.id, job.copies as { state: string; downloadId: string }[]]));
    expect(copies.size).toBe(1_200);
    expect(copies.get(manyJob(4, NOW).id)).toMatchObject([{ state: 'saved', downloadId: 'd-4' }]);
    expect(copies.get(manyJob(700, NOW).id)).toMatchObject([{ state: 'missing', downloadId: 'd-700' }]);
    expect(copies.get(manyJob(1_100, NOW).id)).toMatchObject([{ state: 'saved', downloadId: 'd-1100' }]);
    expect([...copies.values()].filter((c) => c.length > 0)).toHaveLength(3);
  });

  it('narrows by --limit, --kind, --state, --project, --campaign, --since, --search and orders by --sort', async () => {
    expect((await list(['--json', '--limit', '7'])).out).toHaveLength(7);
    const videos = lines((await list(['--json', '--kind', 'avatar-video', '--state', 'failed'])).out);
    expect(videos.map((job) => job.id)).toEqual(
      newestFirst(all.filter((job) => job.kind === 'avatar-video' && job.phase === 'failed')),
    );
    const recent = lines((await list(['--json', '--since', '30m', '--project', 'project-a'])).out);
    expect(recent.map((job) => job.id)).toEqual(
      newestFirst(all.filter((job) => job.createdAt > NOW - 30 * 60_000 + 1_000 && job.projectId === 'project-a')),
    );
    expect(lines((await list(['--json', '--campaign', 'nope'])).out)).toEqual([]);
    expect(lines((await list(['--json', '--search', 'ROW 1234 SAYS'])).out).map((job) => job.id)).toEqual([
      'job-00001234',
    ]);
    const dearest = lines((await list(['--json', '--sort', 'cost', '--limit', '3'])).out);
    expect(dearest.map((job) => job.chargedCredits)).toEqual([10, 10, 10]);
    const oldest = lines((await list(['--json', '--sort', 'oldest', '--limit', '1'])).out);
    expect(oldest[0]?.id).toBe(newestFirst(all).at(-1));
    // A filter value outside its choices is the command line's mistake: nothing is read.
    expect((await list(['--state', 'finished'])).code).toBe(2);
    expect((await list(['--since', 'last tuesday'])).code).toBe(2);
  });

  it('shows 50 rows in the table, says how many more there are, and what they all cost', async () => {
    const result = await list([]);
    expect(result.code).toBe(0);
    const text = result.out.join('\n');
    expect(text.split('\n').filter((line) => line.startsWith('job-'))).toHaveLength(50);
    expect(text).toContain('2,950 more jobs not shown (--limit N shows more; --json lists them all).');
    const charged = all.reduce((sum, job) => sum + (job.chargedCredits ?? 0), 0);
    expect(text).toContain(`Cost of all 3,000 jobs: ${charged.toLocaleString('en-US')} credits`);
    const few = (await list(['--kind', 'avatar-video', '--state', 'failed', '--limit', '100'])).out.join('\n');
    expect(few).not.toContain('not shown');
    expect((await list(['--campaign', 'nope'])).out.join('\n')).toBe('No jobs match.');
  });

  it('pages through the studio that owns the folder, the same jobs in the same order', async () => {
    const base = createMemoryHostBase({ dataDir });
    const domains = createDomains(base, { start: 'read-only' });
    let channel: OwnerChannel | undefined;
    try {
      const dispatcher = createDispatcher({ handlers: domains.handlers, log: base.log, redact: (t) => t });
      const asked: string[] = [];
      const dispatch: typeof dispatcher = (call, args) => (asked.push(String(call)), dispatcher(call, args));
      channel = await openOwnerChannel({
        dataDir,
        kind: 'web host',
        dispatch,
        subscribe: () => () => {},
        log: base.log,
      });
      const result = await list(['--json', '--state', 'completed']);
      expect(result.code, result.err.join('\n')).toBe(0);
      expect(lines(result.out).map((job) => job.id)).toEqual(
        newestFirst(all.filter((job) => job.phase === 'completed')),
      );
      // 2,940 jobs in pages of at most 500, never the whole list.
      expect(asked.filter((call) => call === 'jobs.page')).toHaveLength(6);
      expect(asked).not.toContain('jobs.list');
      // Their copies asked for by job, a page at a time, never as the owner's whole record of copies.
      expect(asked.filter((call) => call === 'downloads.ofJobs')).toHaveLength(6);
      expect(asked).not.toContain('downloads.list');
    } finally {
      await channel?.close();
      await domains.disposeAll();
    }
  });
});

describe('studio jobs list --json in a process of its own', () => {
  it('streams 50,000 jobs, one line each', async () => {
    const big = tempDir('studio-jobs-list-big-');
    seedJobs(big, 50_000);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'electron/cli/index.ts'), 'jobs', 'list', '--json', '--data-dir', big],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let count = 0;
    let previous = Infinity;
    let ordered = true;
    for await (const line of createInterface({ input: child.stdout })) {
      const job = JSON.parse(line) as JobView;
      ordered &&= job.createdAt <= previous;
      previous = job.createdAt;
      count += 1;
    }
    const code = await new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
    );
    expect(code, stderr).toBe(0);
    expect(count).toBe(50_000);
    expect(ordered).toBe(true);
  }, 300_000);
});
