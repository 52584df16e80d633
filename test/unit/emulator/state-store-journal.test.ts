// The sandbox's records are journalled: a change appends what it touched, and the whole file is written
// again only once the journal outgrows it. Rewriting every job after each change stalled the thread
// that answers requests (and counts them against the rate limit) for longer as a campaign grew.
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateStore, readSandboxRecords } from '../../../electron/emulator/state/store';
import type { JobRecord } from '../../../electron/emulator/state/types';
import { sandboxJob } from './sandbox-job';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function job(id: string, status: JobRecord['status'] = 1): JobRecord {
  return sandboxJob(id, { status, request: { input_text: `Hi ${id}` } });
}

/** Lets the store's scheduled write run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
const journalLines = () => readFileSync(join(dir, 'state.journal'), 'utf8').trim().split('\n');
const generation = () =>
  (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { generation: number }).generation;

describe("the sandbox's records", () => {
  it('journal each change with only the job it touched, and read back whole while running and after a restart', async () => {
    const store = new StateStore(dir, () => undefined);
    for (const id of ['a', 'b', 'c']) {
      store.state.jobs[id] = job(id);
      store.changed(store.state.jobs[id]);
      await turn();
    }
    store.state.jobs.b.status = 3;
    store.changed(store.state.jobs.b);
    store.state.files['b.mp3'] = { name: 'b.mp3', createdAt: 1, expiresAt: 2 };
    store.fileChanged('b.mp3');
    await turn();

    const last = JSON.parse(journalLines().at(-1) as string) as { jobs: Record<string, unknown> };
    expect(Object.keys(last.jobs)).toEqual(['b']);
    const running = readSandboxRecords(dir).state;
    expect(Object.keys(running.jobs)).toEqual(['a', 'b', 'c']);
    expect(running.jobs.b.status).toBe(3);
    expect(Object.keys(running.files)).toEqual(['b.mp3']);

    const again = new StateStore(dir, () => undefined);
    expect(again.state.jobs.b.status).toBe(3);
    delete again.state.files['b.mp3'];
    again.fileChanged('b.mp3');
    await turn();
    expect(readSandboxRecords(dir).state.files).toEqual({});
  });

  it('writes the whole file again only once the journal outgrows it, so a long campaign does not rewrite every job per change', async () => {
    const store = new StateStore(dir, () => undefined);
    for (let i = 0; i < 3_000; i++) {
      const id = `job${i}`;
      store.state.jobs[id] = job(id);
      store.changed(store.state.jobs[id]);
      await turn();
      // Queued, processing, done: each a change of its own, as the sandbox's jobs go.
      for (const status of [2, 3] as const) {
        store.state.jobs[id].status = status;
        store.changed(store.state.jobs[id]);
        await turn();
      }
    }
    // 9,000 changes: the journal must reach the whole file's size (at least 1 MB) before it is folded in.
    expect(generation()).toBeLessThanOrEqual(6);
    expect(Object.values(readSandboxRecords(dir).state.jobs).every((j) => j.status === 3)).toBe(true);
    store.close();
    expect(readFileSync(join(dir, 'state.journal'), 'utf8')).toBe('');
    expect(
      Object.keys((JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { jobs: object }).jobs),
    ).toHaveLength(3_000);
  });

  it('ignores lines of an older generation, left when a crash came between the whole write and emptying the journal', () => {
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ version: 1, generation: 2, jobs: { a: job('a', 3) } }));
    const stale = { g: 1, jobs: { a: job('a', 1) }, files: {}, rest: { version: 1 } };
    writeFileSync(join(dir, 'state.journal'), `${JSON.stringify(stale)}\n`);
    expect(new StateStore(dir, () => undefined).state.jobs.a.status).toBe(3);
  });

  it('skips a last line cut short by a crash, and says so', () => {
    const logged: string[] = [];
    const line = (id: string) =>
      `${JSON.stringify({ g: 0, jobs: { [id]: job(id) }, files: {}, rest: { version: 1 } })}\n`;
    writeFileSync(join(dir, 'state.journal'), line('a') + line('b'));
    appendFileSync(join(dir, 'state.journal'), line('c').slice(0, 30));
    const store = new StateStore(dir, (text) => logged.push(text));
    expect(Object.keys(store.state.jobs)).toEqual(['a', 'b']);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/journal line skipped: the last line, cut short/);
  });

  it('moves an unreadable whole file aside with its journal, and starts empty', () => {
    writeFileSync(join(dir, 'state.json'), '{ not json');
    writeFileSync(join(dir, 'state.journal'), 'x\n');
    const store = new StateStore(dir, () => undefined);
    expect(store.state.jobs).toEqual({});
    const names = readdirSync(dir);
    expect(names.filter((n) => n.startsWith('state.json.corrupt-'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('state.journal.corrupt-'))).toHaveLength(1);
  });
});
