import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DownloadEntry } from '../../../electron/common/bridge/downloads';
import { journalLine, journalOf, readQueueEntries } from '../../../electron/services/downloads/queue-file';
import { newEntry } from '../../../electron/services/downloads/queue-names';
import { QueueStore } from '../../../electron/services/downloads/queue-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function queuePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'queue-journal-'));
  dirs.push(dir);
  return join(dir, 'queue.json');
}

function entry(i: number): DownloadEntry {
  const request = {
    jobId: `job-${i}`,
    url: `http://127.0.0.1:1/r/${i}.mp4`,
    folder: '/tmp/out',
    origin: 'campaign' as const,
  };
  return newEntry({ ...request, relativeName: `row-${i}.mp4` }, '/tmp/out', `row-${i}.mp4`, 1_000 + i);
}

/** A store over a live map of entries, as the download manager keeps them. */
function storeOf(file: string, warnings: string[] = []) {
  const entries = new Map<string, DownloadEntry>();
  const log = { debug() {}, info() {}, error() {}, warn: (message: string) => warnings.push(message) };
  const store = new QueueStore(file, () => entries.values(), log);
  for (const loaded of store.load()) entries.set(loaded.id, loaded);
  return { store, entries };
}

const generationOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { generation?: number }).generation;

describe('the download queue journal', () => {
  it('records each change as a line, and a new owner and a reader see the queue as it is now', async () => {
    const file = queuePath();
    const { store, entries } = storeOf(file);
    for (let i = 0; i < 20; i++) {
      const added = entry(i);
      entries.set(added.id, added);
      await store.save([added]);
    }
    const first = [...entries.values()][0];
    Object.assign(first, { state: 'saved', savedPath: '/tmp/out/row-0.mp4', bytes: 10 });
    await store.save([first]);
    await store.written();

    const lines = readFileSync(journalOf(file), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(21);
    const again = [...storeOf(file).entries.values()];
    expect(again).toHaveLength(20);
    expect(again.find((e) => e.id === first.id)).toMatchObject({ state: 'saved', bytes: 10 });
    expect(await readQueueEntries(file)).toEqual(again);
    await store.close();
  });

  it('writes the whole file again only once the journal outgrows it, so saving grows with the rows, not their square', async () => {
    const file = queuePath();
    const { store, entries } = storeOf(file);
    const rows = 3_000;
    for (let i = 0; i < rows; i++) {
      const added = entry(i);
      entries.set(added.id, added);
      // A row's download: queued, then saved.
      await store.save([added]);
      Object.assign(added, { state: 'saved', savedPath: `/tmp/out/row-${i}.mp4` });
      await store.save([added]);
    }
    await store.close();
    // 6,000 changes of a queue reaching 3,000 entries, and the close: the journal must outgrow the whole
    // file (at least 256 KB) before it is folded in, so 7 whole writes here, where one per change made 6,001.
    expect(generationOf(file)).toBeLessThanOrEqual(10);
    expect([...storeOf(file).entries.values()].filter((e) => e.state === 'saved')).toHaveLength(rows);
  });

  it('a clean stop leaves one whole file and an empty journal', async () => {
    const file = queuePath();
    const { store, entries } = storeOf(file);
    const added = entry(1);
    entries.set(added.id, added);
    await store.save([added]);
    await store.close();
    expect(readFileSync(journalOf(file), 'utf8')).toBe('');
    expect((JSON.parse(readFileSync(file, 'utf8')) as { entries: unknown[] }).entries).toHaveLength(1);
  });

  it('lines of an older generation, left when a crash came between the whole write and the journal’s truncation, are not replayed over newer entries', async () => {
    const file = queuePath();
    const saved = { ...entry(7), state: 'saved' as const, savedPath: '/tmp/out/row-7.mp4' };
    writeFileSync(file, JSON.stringify({ version: 1, generation: 2, entries: [saved] }));
    writeFileSync(journalOf(file), journalLine(1, { ...saved, state: 'queued', savedPath: null }));
    expect([...storeOf(file).entries.values()]).toEqual([saved]);
    expect(await readQueueEntries(file)).toEqual([saved]);
  });

  it('a last line cut short by a crash is skipped and reported; the lines before it count', async () => {
    const file = queuePath();
    const warnings: string[] = [];
    writeFileSync(journalOf(file), journalLine(0, entry(1)) + journalLine(0, entry(2)));
    appendFileSync(journalOf(file), journalLine(0, entry(3)).slice(0, 40));
    expect([...storeOf(file, warnings).entries.values()].map((e) => e.jobId)).toEqual(['job-1', 'job-2']);
    expect(warnings).toEqual(['download queue journal line skipped']);
  });

  it('an unreadable whole file is set aside with its journal, never replayed half', async () => {
    const file = queuePath();
    writeFileSync(file, '{ not json');
    writeFileSync(journalOf(file), journalLine(0, entry(1)));
    expect([...storeOf(file).entries.values()]).toEqual([]);
    const names = readdirSync(join(file, '..'));
    expect(names.filter((n) => n.startsWith('queue.json.corrupt-'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('queue.json.journal.corrupt-'))).toHaveLength(1);
  });
});

describe('a process that only reads the queue', () => {
  it('leaves its files as they are at a clean stop, so the owner writing beside it loses no line', async () => {
    const file = queuePath();
    // The owner: a queue written whole once, then changes in its journal, and it keeps going.
    const owner = storeOf(file);
    const a = entry(1);
    owner.entries.set(a.id, a);
    await owner.store.save([a]);
    await owner.store.close();
    const running = storeOf(file);
    const b = entry(2);
    running.entries.set(b.id, b);
    await running.store.save([b]);
    const before = [readFileSync(file, 'utf8'), readFileSync(journalOf(file), 'utf8')];

    // A read-only command beside it (a studio it cannot reach) opens the queue and stops.
    const reader = storeOf(file);
    expect(reader.entries.size).toBe(2);
    await reader.store.close();
    expect([readFileSync(file, 'utf8'), readFileSync(journalOf(file), 'utf8')]).toEqual(before);

    // The owner's next change is read back: before, the reader's rewrite took the next generation and
    // the owner's line, of the old one, was skipped.
    const c = entry(3);
    running.entries.set(c.id, c);
    await running.store.save([c]);
    const after = storeOf(file);
    expect([...after.entries.keys()].sort()).toEqual([a.id, b.id, c.id].sort());
    await running.store.close();
  });
});
