// Once the sandbox's journal outgrows its whole file, the records are folded into a new whole file in
// steps, with requests answered in between: folding a long campaign's records in one go held the thread
// that counts requests against the rate limit, and the requests it then took in at once were refused a
// second later. These tests play a fold through, with a crash at each of its moments.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateStore, readSandboxRecords } from '../../../electron/emulator/state/store';
import type { JobRecord } from '../../../electron/emulator/state/types';
import { sandboxJob } from './sandbox-job';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-fold-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const turn = () => new Promise((resolve) => setImmediate(resolve));
const at = (name: string) => join(dir, name);
const job = (id: string, status: JobRecord['status'] = 1) =>
  sandboxJob(id, { status, request: { input_text: `Hello ${id}, `.repeat(20) } });
const line = (g: number, jobs: JobRecord[]) =>
  `${JSON.stringify({ g, jobs: Object.fromEntries(jobs.map((j) => [j._id, j])), files: {}, rest: { version: 1 } })}\n`;

/** Makes jobs, one change each turn, until the journal has outgrown the whole file and a fold began. */
async function untilFolding(store: StateStore): Promise<number> {
  for (let i = 0; i < 20_000; i++) {
    store.state.jobs[`j${i}`] = job(`j${i}`);
    store.changed(store.state.jobs[`j${i}`]);
    await turn();
    if (existsSync(at('state.json.fold'))) return i + 1;
  }
  throw new Error('20,000 changes began no fold');
}

describe("the sandbox's records, folded in steps", () => {
  it('answer other work between the steps of a fold, and keep the changes made meanwhile, read while running and after a restart', async () => {
    const store = new StateStore(dir, () => undefined);
    const made = await untilFolding(store);
    // Work of the event loop (requests, in the sandbox) runs while the fold is under way. Changes stop
    // after a few dozen turns: a slow machine's fold lasts more turns, and unbounded changes would let the
    // next journal outgrow its limit and begin a second fold as soon as this one ends.
    let turnsDuringFold = 0;
    let late = 0;
    for (; existsSync(at('state.json.fold')); turnsDuringFold++) {
      if (late < 40) {
        store.state.jobs.j0.status = 3;
        store.state.jobs[`late${late}`] = job(`late${late}`);
        store.changed(store.state.jobs.j0);
        store.changed(store.state.jobs[`late${late}`]);
        late++;
      }
      await turn();
    }
    expect(turnsDuringFold).toBeGreaterThan(1);
    // The fold ended: its next journal became the journal, and the changes made meanwhile are in it. The
    // whole file is in place a moment before its journal is (a busy machine's turns fall between them).
    await store.idle();
    expect(existsSync(at('state.journal.next'))).toBe(false);
    const running = readSandboxRecords(dir);
    expect(running.generation).toBe(1);
    expect(running.state.jobs.j0.status).toBe(3);
    expect(Object.keys(running.state.jobs)).toHaveLength(made + late);
    const again = new StateStore(dir, () => undefined);
    expect(Object.keys(again.state.jobs)).toHaveLength(made + late);
    expect(again.state.jobs.j0.status).toBe(3);
  });

  it('abandon a fold at close, which writes everything as one whole file', async () => {
    const store = new StateStore(dir, () => undefined);
    const made = await untilFolding(store);
    store.state.jobs.j1.status = 4;
    store.changed(store.state.jobs.j1);
    store.close();
    // The fold's own end, later, must not put its older file over the close's.
    await store.idle();
    expect(readdirSync(dir).sort()).toEqual(['state.journal', 'state.json']);
    const read = readSandboxRecords(dir);
    // Generation 1 was the fold's; the close's file follows it.
    expect(read.generation).toBe(2);
    expect(Object.keys(read.state.jobs)).toHaveLength(made);
    expect(read.state).toEqual(store.state);
  });

  it('read the next journal after a crash during a fold, and put both journals behind one whole file at open', () => {
    writeFileSync(at('state.json'), JSON.stringify({ version: 1, generation: 3, jobs: { a: job('a') } }));
    writeFileSync(at('state.journal'), line(3, [job('b')]) + line(3, [job('a', 2)]));
    writeFileSync(at('state.journal.next'), line(4, [job('a', 3), job('c')]));
    writeFileSync(at('state.json.fold'), '{"generation":4,"jobs":{"a":');
    const read = readSandboxRecords(dir).state.jobs;
    expect(Object.keys(read).sort()).toEqual(['a', 'b', 'c']);
    expect(read.a.status).toBe(3);

    const store = new StateStore(dir, () => undefined);
    expect(store.state.jobs.a.status).toBe(3);
    expect(existsSync(at('state.journal.next'))).toBe(false);
    expect(readFileSync(at('state.journal'), 'utf8')).toBe('');
    expect(readSandboxRecords(dir).state.jobs).toEqual(store.state.jobs);
  });

  it('ignore the journal a fold had folded when a crash came before its next journal took its place', () => {
    // The new whole file (generation 4) holds the journal's lines; only the next journal's are newer.
    writeFileSync(at('state.json'), JSON.stringify({ version: 1, generation: 4, jobs: { a: job('a', 2) } }));
    writeFileSync(at('state.journal'), line(3, [job('a', 1)]));
    writeFileSync(at('state.journal.next'), line(4, [job('a', 3)]));
    expect(readSandboxRecords(dir).state.jobs.a.status).toBe(3);
    expect(new StateStore(dir, () => undefined).state.jobs.a.status).toBe(3);
  });

  it("apply a generation's lines in the order written when a reader met a fold's end between its reads", () => {
    // The next journal was read first; by the journal's read it had taken the journal's place, longer.
    writeFileSync(at('state.json'), JSON.stringify({ version: 1, generation: 4, jobs: {} }));
    writeFileSync(at('state.journal.next'), line(4, [job('a', 2)]));
    writeFileSync(at('state.journal'), line(4, [job('a', 2)]) + line(4, [job('a', 3)]));
    expect(readSandboxRecords(dir).state.jobs.a.status).toBe(3);
  });
});
