import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { PlainPolling } from '../../../electron/services/jobs/polling-strategy';
import { exportBatch, MANIFEST_NAME } from '../../../electron/services/voices/batch-export';
import { editedRow, readBatch, refusedRows } from '../../../electron/services/voices/batch-input';
import type { BatchRow, BatchRowEdit } from '../../../electron/common/bridge/batches';
import { resolveMediaBinary } from '../../../electron/services/system/binaries';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import Papa from 'papaparse';
import { createBatchRows } from './batch-host';
import { CATALOGUE_ROOT } from '../emulator/harness';
import { runsIn } from '../rows/folder-runs';

let emulator: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'studio-batch-'));
beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 0.3,
    catalogueDir: CATALOGUE_ROOT,
    dataDir: join(dir, 'sandbox'),
    rateLimit: 8,
  });
}, 120_000);
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One run of a host on a data folder: an engine on its ledger and a batch runner on its batches. */
function host(dataDir: string, notes: string[] = []) {
  const client = new ServiceClient({
    baseUrl: emulator.url,
    credentials: { kind: 'api-key', apiKey: emulator.apiKey },
  });
  const engine = new JobEngine({
    storage: openLedger(dataDir),
    connections: {
      active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
    notify: (title) => notes.push(title),
    // The sandbox's jobs last 0.3 s here, where the desktop's first step is 3 s; the steps stay slow enough
    // that the polls leave room under the sandbox's rate limit for the creates.
    polling: new PlainPolling(),
    scheduler: {
      queued: { baseMs: 400, capMs: 1_000, factor: 1.5, jitter: 0.3 },
      processing: { baseMs: 300, capMs: 1_000, factor: 1.5, jitter: 0.3 },
    },
  });
  engine.start();
  const { batches: runner } = createBatchRows({
    engine,
    runs: runsIn(dataDir),
    notify: (title, body) => notes.push(`${title}: ${body}`),
  });
  return { engine, runner };
}

const csv = (n: number) =>
  [
    'text,voice,name',
    ...Array.from({ length: n }, (_, i) => `Voiceover number ${i + 1}.,sandbox_ava,spot-${i + 1}`),
  ].join('\n');

/** Once `n` rows' creates were answered (a create still on its way when the batch pauses is held back). */
function rowsSent(engine: JobEngine, n: number): Promise<void> {
  const sent = () =>
    engine.list().filter((j) => j.purpose.type === 'batch-row' && j.phase !== 'submitting').length >= n;
  return new Promise((resolve) => {
    if (sent()) return resolve();
    const stop = engine.subscribe(() => {
      if (!sent()) return;
      stop();
      resolve();
    });
  });
}

/** Jobs in the ledger per batch row: a row sent twice would have two. */
function jobsPerRow(dataDir: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const job of openLedger(dataDir).loadAll()) {
    if (job.purpose?.type === 'batch-row') counts.set(job.purpose.row, (counts.get(job.purpose.row) ?? 0) + 1);
  }
  return counts;
}

describe('reading a batch', () => {
  it('takes the text, voice, rate and name columns, with defaults, and names every row it will not send', () => {
    const read = readBatch('Name;Script;Speed\nintro;Hello there.;70\nempty;;\nfast;Quick!;101', {
      voiceId: 'sandbox_ava',
    });
    expect(read.rows.map((r) => [r.name, r.text, r.voiceId, r.rate])).toEqual([
      ['intro', 'Hello there.', 'sandbox_ava', '70%'],
      ['empty', '', 'sandbox_ava', '50%'],
      ['fast', 'Quick!', 'sandbox_ava', '101'],
    ]);
    expect(read.problems).toEqual([
      { row: 1, message: expect.stringMatching(/empty/) },
      { row: 2, message: 'rate "101" is not 0% to 100%' },
    ]);
  });

  it('names a row whose voice the connection does not have, and sends the rest when the voices are unknown', () => {
    const csv = 'text,voice\nHello.,sandbox_ava\nHi.,sandbox_nobody';
    const known = (id: string) => id === 'sandbox_ava';
    expect(readBatch(csv, {}, known).problems).toEqual([
      { row: 1, message: expect.stringMatching(/voice "sandbox_nobody" is not one of this connection's voices/) },
    ]);
    expect(readBatch(csv, {}, null).problems).toEqual([]);
  });

  it('reads lines without a header as one script each, and wants a voice for them', () => {
    expect(readBatch('First line\n\nSecond line\n', { voiceId: 'v' }).rows.map((r) => r.text)).toEqual([
      'First line',
      'Second line',
    ]);
    expect(readBatch('First line\n').problems[0].message).toMatch(/no voice/);
  });
});

describe('a batch of voiceovers', () => {
  it('survives a restart half way: goes on where it stopped and sends no row twice', async () => {
    const dataDir = mkdtempSync(join(dir, 'restart-'));
    const input = readBatch(csv(12));
    const first = host(dataDir);
    await first.runner.create({
      id: 'b1',
      label: 'spots.csv',
      rows: input.rows,
      invalid: [],
      concurrency: 3,
      template: '{row}-{name|text}',
    });
    const running = first.runner.run('b1');
    // Stop the first host once a few rows are out, as a crash would: its row engine and its job engine
    // both stop (in one process they die together); the batch's record is not flushed on purpose.
    await rowsSent(first.engine, 4);
    await first.runner.stopSending();
    first.engine.stop();
    await first.engine.flush();
    await running;
    expect(jobsPerRow(dataDir).size).toBeLessThan(12);

    const second = host(dataDir);
    await second.runner.resume('b1');
    const view = await second.runner.run('b1');
    expect(view.state).toBe('finished');
    expect(view.counts.completed).toBe(12);
    expect([...jobsPerRow(dataDir).values()]).toEqual(Array(12).fill(1));
    second.engine.stop();

    const folder = join(dataDir, 'out');
    const exported = await exportBatch(view, folder);
    expect(exported.inFolder).toBe(12);
    // {row} is padded to the last row's digits, so the files sort in row order.
    expect(
      readdirSync(folder)
        .filter((n) => n.endsWith('.mp3'))
        .sort()
        .slice(0, 3),
    ).toEqual(['01-spot-1.mp3', '02-spot-2.mp3', '03-spot-3.mp3']);
    const bytes = readFileSync(join(folder, MANIFEST_NAME));
    // A byte-order mark first, so Excel reads the manifest as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const manifest = bytes.toString('utf8').slice(1).trim().split(/\r?\n/);
    expect(manifest[0]).toBe(
      'sheet_row,name,text,voice,voice_name,rate,status,reason,file,duration_s,link,expiry,cost_credits',
    );
    expect(manifest).toHaveLength(13);
    // No duration without a prober, and no cost: the service reports no charge for speech.
    expect(manifest[1]).toMatch(
      /^2,spot-1,Voiceover number 1\.,sandbox_ava,,50%,completed,,01-spot-1\.mp3,,http:\/\/127\.0\.0\.1:\d+\/files\/.+\.mp3,\d{4}-[^,]+,$/,
    );
  }, 120_000);

  it('keeps why each refused row was refused, also when the reason came from the voice list', async () => {
    const dataDir = mkdtempSync(join(dir, 'reasons-'));
    const read = readBatch(
      'text,voice\nHello,sandbox_ava\n,sandbox_ava\nHi,nobody\n',
      {},
      (id) => id === 'sandbox_ava',
    );
    const { engine, runner } = host(dataDir);
    const record = await runner.create({
      id: 'b-reasons',
      label: 'x',
      rows: read.rows,
      ...refusedRows(read.problems),
      concurrency: 1,
      template: '{row}',
    });
    const rows = runner.view(record).rows;
    expect(rows.map((r) => r.state)).toEqual(['waiting', 'invalid', 'invalid']);
    expect(rows[1].problem).toMatch(/empty/);
    expect(rows[2].problem).toBe(
      'voice "nobody" is not one of this connection\'s voices (the voice library lists them)',
    );
    engine.stop();
  });

  it('sends failed rows again only when asked, and never a row that is still at the service', async () => {
    const dataDir = mkdtempSync(join(dir, 'retry-'));
    const input = readBatch(csv(3));
    const { engine, runner } = host(dataDir);
    // A voice the service does not know: every row fails, nothing is created.
    await runner.create({
      id: 'b2',
      label: 'x',
      rows: input.rows.map((r) => ({ ...r, voiceId: 'no-such-voice' })),
      invalid: [],
      concurrency: 2,
      template: '{row}',
    });
    const failed = await runner.run('b2');
    expect(failed.counts.failed).toBe(3);
    expect(await runner.run('b2')).toMatchObject({ state: 'finished' });
    expect([...jobsPerRow(dataDir).values()]).toEqual([1, 1, 1]);
    await runner.retryFailed('b2');
    const again = await runner.run('b2');
    expect(again.counts.failed).toBe(3);
    expect([...jobsPerRow(dataDir).values()]).toEqual([2, 2, 2]);
    engine.stop();
  }, 120_000);

  it('cancels the rows not sent yet and keeps the ones sent', async () => {
    const dataDir = mkdtempSync(join(dir, 'cancel-'));
    const { engine, runner } = host(dataDir);
    await runner.create({
      id: 'b3',
      label: 'x',
      rows: readBatch(csv(10)).rows,
      invalid: [],
      concurrency: 1,
      template: '{row}',
    });
    const running = runner.run('b3');
    await rowsSent(engine, 2);
    await runner.cancel('b3');
    const view = await running;
    expect(view.state).toBe('cancelled');
    expect(view.counts.cancelled).toBeGreaterThanOrEqual(7);
    engine.stop();
    await engine.flush();
    expect(jobsPerRow(dataDir).size).toBeLessThanOrEqual(3);
  }, 120_000);

  it('holds back every row not yet sent once paused, and sends each of them once on resume', async () => {
    const dataDir = mkdtempSync(join(dir, 'pause-'));
    const { engine, runner } = host(dataDir);
    await runner.create({
      id: 'b4',
      label: 'x',
      rows: readBatch(csv(10)).rows,
      invalid: [],
      concurrency: 2,
      template: '{row}',
    });
    const running = runner.run('b4');
    await rowsSent(engine, 2);
    await runner.pause('b4');
    const paused = await running;
    expect(paused.state).toBe('paused');
    // How many rows were out is the pacer's (no fixed count): every other row waits for Resume.
    const out = engine.list().filter((j) => j.purpose.type === 'batch-row').length;
    expect(out).toBeLessThan(10);
    expect(paused.counts.waiting).toBe(10 - out);
    const resumed = await runner.resume('b4').then(() => runner.run('b4'));
    expect(resumed.counts.completed).toBe(10);
    engine.stop();
    await engine.flush();
    expect([...jobsPerRow(dataDir).values()]).toEqual(Array(10).fill(1));
  }, 120_000);

  it('is announced once when it ends, not once per row', async () => {
    const dataDir = mkdtempSync(join(dir, 'notice-'));
    const notes: string[] = [];
    const read = readBatch('text,voice\nOne.,sandbox_ava\nTwo.,sandbox_ava\n,sandbox_ava\nFour.,sandbox_ava', {});
    const { engine, runner } = host(dataDir, notes);
    await runner.create({
      id: 'b5',
      label: 'spots.csv',
      rows: read.rows,
      ...refusedRows(read.problems),
      concurrency: 2,
      template: '{row}',
    });
    const view = await runner.run('b5');
    expect(view.counts.completed).toBe(3);
    expect(notes).toEqual(['Batch "spots.csv" finished: 3 done, 1 refused of 4 rows']);
    engine.stop();
  }, 120_000);

  it('makes one ended row again as a new job, and a second Save replaces only that file', async () => {
    const dataDir = mkdtempSync(join(dir, 'redo-'));
    const { engine, runner } = host(dataDir);
    await runner.create({
      id: 'b6',
      label: 'x',
      rows: readBatch(csv(3)).rows,
      invalid: [],
      concurrency: 3,
      template: '{row}-{name}',
    });
    const first = await runner.run('b6');
    const folder = join(dataDir, 'out');
    expect((await exportBatch(first, folder)).saved).toBe(3);
    const before = readFileSync(join(folder, MANIFEST_NAME), 'utf8');

    await expect(runner.redoRow('b6', 7)).rejects.toThrow('Sheet row 9 can be made again once it has ended');
    await runner.redoRow('b6', 1);
    const again = await runner.run('b6');
    expect(again.state).toBe('finished');
    expect([...jobsPerRow(dataDir).entries()].sort()).toEqual([
      [0, 1],
      [1, 2],
      [2, 1],
    ]);
    expect(again.rows[1].jobId).not.toBe(first.rows[1].jobId);

    const second = await exportBatch(again, folder);
    expect([second.saved, second.inFolder]).toEqual([1, 3]);
    const linkOf = (manifest: string, row: number) => manifest.split(/\r?\n/)[row + 1].split(',')[10];
    const after = readFileSync(join(folder, MANIFEST_NAME), 'utf8');
    expect(linkOf(after, 1)).toBe(again.rows[1].resultUrl);
    expect(linkOf(after, 1)).not.toBe(linkOf(before, 1));
    expect(linkOf(after, 0)).toBe(linkOf(before, 0));
    engine.stop();
  }, 120_000);

  it('holds back every unsent row of a 200-row batch once paused: no create leaves after Pause, even while the sent rows finish', async () => {
    const dataDir = mkdtempSync(join(dir, 'pause-200-'));
    const { engine, runner } = host(dataDir);
    await runner.create({
      id: 'b200',
      label: 'x',
      rows: readBatch(csv(200)).rows,
      invalid: [],
      concurrency: 4,
      template: '{row}',
    });
    const running = runner.run('b200');
    // Paused once ten rows are out (the "after 10 s" at its pace), at a point the test can name.
    await rowsSent(engine, 10);
    await runner.pause('b200');
    const paused = await running;
    const outAtPause = engine.list().filter((j) => j.purpose.type === 'batch-row').length;
    // At most the concurrency beyond the tenth: each place holds its row until that row's job ends.
    expect(outAtPause).toBeGreaterThanOrEqual(10);
    expect(outAtPause).toBeLessThanOrEqual(14);
    expect(paused.counts.waiting).toBe(200 - outAtPause);
    // The rows already at the service finish; nothing more is sent.
    const ended = new Set(['completed', 'failed', 'outcome-unknown', 'stalled']);
    await new Promise<void>((resolve) => {
      const done = () =>
        engine
          .list()
          .filter((j) => j.purpose.type === 'batch-row')
          .every((j) => ended.has(j.phase));
      if (done()) return resolve();
      const stop = engine.subscribe(() => done() && (stop(), resolve()));
    });
    const after = runner.view((await runner.get('b200'))!);
    expect(engine.list().filter((j) => j.purpose.type === 'batch-row')).toHaveLength(outAtPause);
    expect([after.state, after.counts.waiting, after.counts.completed]).toEqual([
      'paused',
      200 - outAtPause,
      outAtPause,
    ]);
    engine.stop();
    await engine.flush();
    expect(jobsPerRow(dataDir).size).toBe(outAtPause);
  }, 120_000);

  it('works as a table: unsent rows changed and deleted while paused, a sent row kept, an ended row made again with its change', async () => {
    const dataDir = mkdtempSync(join(dir, 'table-'));
    const { engine, runner } = host(dataDir);
    const check = (row: BatchRow, edit: BatchRowEdit) => editedRow(row, edit, {}, null);
    await runner.create({
      id: 'bt',
      label: 'x',
      rows: readBatch(csv(5)).rows,
      invalid: [],
      concurrency: 1,
      template: '{row}-{name}',
    });
    const running = runner.run('bt');
    await rowsSent(engine, 1);
    await expect(runner.removeRows('bt', [4])).rejects.toThrow('Pause the batch before deleting rows');
    await runner.pause('bt');
    await running;
    await expect(runner.removeRows('bt', [0])).rejects.toThrow('Sheet row 2 was sent (a paid job)');
    await runner.removeRows('bt', [4]);
    await runner.editRow('bt', { row: 3, text: 'Row four, rewritten.' }, false, check);
    await runner.resume('bt');
    const done = await runner.run('bt');
    expect([done.state, done.rows.length, done.counts.completed]).toEqual(['finished', 4, 4]);
    const request = (row: number) =>
      (
        engine
          .list()
          .filter((j) => j.purpose.type === 'batch-row' && j.purpose.row === row)
          .sort((a, b) => a.createdAt - b.createdAt)
          .at(-1)?.request as { input_text: string }
      ).input_text;
    expect(request(3)).toBe('Row four, rewritten.');

    await expect(runner.editRow('bt', { row: 2, text: 'Third, better.' }, false, check)).rejects.toThrow(
      'Sheet row 4 has been made',
    );
    await runner.editRow('bt', { row: 2, text: 'Third, better.' }, true, check);
    const again = await runner.run('bt');
    expect(again.state).toBe('finished');
    expect(request(2)).toBe('Third, better.');
    expect([...jobsPerRow(dataDir).entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n)).toEqual([1, 1, 2, 1]);

    // A new take that fails leaves the row its last good one, to hear and to save.
    const good = again.rows[0].resultUrl;
    await runner.editRow('bt', { row: 0, voice: 'no-such-voice' }, true, check);
    const failed = await runner.run('bt');
    expect([failed.rows[0].state, failed.rows[0].resultUrl]).toEqual(['failed', good]);
    const folder = join(dataDir, 'out');
    expect((await exportBatch(failed, folder)).inFolder).toBe(4);
    const first = Papa.parse<Record<string, string>>(readFileSync(join(folder, MANIFEST_NAME), 'utf8').slice(1), {
      header: true,
    }).data[0];
    expect([first.status, first.link, first.file]).toEqual(['failed', good, '1-spot-1.mp3']);
    engine.stop();
  }, 120_000);

  it("saves a manifest with each file's duration and non-Latin text as UTF-8 after a BOM", async () => {
    const dataDir = mkdtempSync(join(dir, 'manifest-'));
    const notes: string[] = [];
    const { engine, runner } = host(dataDir, notes);
    const read = readBatch(
      'text,voice,name\n"Привет, мир.",sandbox_ava,привет\n你好，世界。,sandbox_ava,你好\nΚαλημέρα.,sandbox_ava,',
      {},
    );
    await runner.create({
      id: 'bm',
      label: 'мир.csv',
      rows: read.rows,
      invalid: [],
      concurrency: 3,
      template: '{row}-{name|text}',
    });
    const view = await runner.run('bm');
    const prober = new MediaProber(async () => (await resolveMediaBinary('ffprobe')).path, new ProcessRunner());
    const folder = join(dataDir, 'Кампания');
    await exportBatch(view, folder, {
      duration: async (path) => ((await prober.probe(path)).durationMs ?? 0) / 1000,
    });
    expect(readdirSync(folder).sort()).toEqual(['1-привет.mp3', '2-你好.mp3', '3-Καλημέρα.mp3', 'manifest.csv']);
    const bytes = readFileSync(join(folder, MANIFEST_NAME));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // The script's own UTF-8 bytes, not a code page's: "Привет" and "你好" as Excel will read them after the BOM.
    expect(bytes.includes(Buffer.from([0xd0, 0x9f, 0xd1, 0x80, 0xd0, 0xb8, 0xd0, 0xb2, 0xd0, 0xb5, 0xd1, 0x82]))).toBe(
      true,
    );
    expect(bytes.includes(Buffer.from([0xe4, 0xbd, 0xa0, 0xe5, 0xa5, 0xbd]))).toBe(true);
    const lines = Papa.parse<Record<string, string>>(bytes.toString('utf8').slice(1), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(lines.map((l) => [l.text, l.file])).toEqual([
      ['Привет, мир.', '1-привет.mp3'],
      ['你好，世界。', '2-你好.mp3'],
      ['Καλημέρα.', '3-Καλημέρα.mp3'],
    ]);
    for (const line of lines) expect(Number(line.duration_s)).toBeGreaterThan(0);
    expect(lines.map((l) => l.cost_credits)).toEqual(['', '', '']);

    engine.stop();
  }, 120_000);
});
