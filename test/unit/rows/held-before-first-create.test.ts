// A row the engine has just started holds a place at its connection's pacer (only a few new rows start at
// once) until its first create joins the request line. A row paused or cancelled in that moment never gets
// there: its step ends before any create. Its place must be let go then, or once as many rows as may start
// at once were stopped so, no row on the connection ever starts again: Resume would leave the run waiting
// for ever, and so would the next batch after a Cancel.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { RowBase } from '../../../electron/services/rows/engine/row-kind';
import type { RunStore, RunStores, StoredRun } from '../../../electron/services/rows/engine/run-store';
import { NEW_ROWS_IN_LINE } from '../../../electron/services/rows/rate/row-pacer';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost, lines, sandboxJobs } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-held-first-', { jobSeconds: 0.1, readyMade: true });
const HANG_GUARD = { timeout: 60_000, interval: 20 };

/** Runs' records whose next write of a started row (pending to its first step), once armed, waits for the test. */
function heldStarts() {
  let armed: { reached: () => void; gate: Promise<void> } | null = null;
  const arm = () => {
    let letGo: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const atStart = new Promise<void>((resolve) => (reached = resolve));
    armed = { reached, gate: new Promise<void>((resolve) => (letGo = resolve)) };
    return { atStart, letGo };
  };
  const wrap = (stores: RunStores): RunStores => ({
    of<Row extends { row: number }, Run extends StoredRun<Row>>(
      kind: string,
      parse: (raw: unknown, where: string) => Run,
      noun?: string,
    ): RunStore<Row, Run> {
      const store = stores.of<Row, Run>(kind, parse, noun);
      return {
        get: (id) => store.get(id),
        list: () => store.list(),
        summaries: () => store.summaries(),
        putRun: (run) => store.putRun(run),
        remove: (id) => store.remove(id),
        flush: () => store.flush(),
        putRow: async (run, row) => {
          const held = armed;
          if (held && (row as unknown as RowBase).state === 'speech') {
            armed = null;
            held.reached();
            await held.gate;
          }
          return store.putRow(run, row);
        },
      };
    },
  });
  return { wrap, arm };
}

describe('a row stopped between its start and its first create', () => {
  it('lets the next rows start after Resume', async () => {
    const em = sandbox();
    const hold = heldStarts();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')), undefined, hold.wrap);
    try {
      const before = await sandboxJobs(em);
      await studio.batches.create({ id: 'b', ...lines(NEW_ROWS_IN_LINE + 2) });
      // As many times as new rows may start at once: a row is started (in memory), its step not yet run,
      // and the user pauses; then resumes.
      for (let stop = 0; stop < NEW_ROWS_IN_LINE; stop += 1) {
        const held = hold.arm();
        const running = stop === 0 ? studio.rows.run('batch', 'b') : studio.batches.resume('b');
        await held.atStart;
        const pausing = studio.batches.pause('b');
        await vi.waitFor(async () => expect((await studio.batches.get('b'))?.state).toBe('paused'), HANG_GUARD);
        held.letGo();
        await pausing;
        await running;
        await studio.rows.idle();
      }
      expect(await sandboxJobs(em)).toBe(before);

      await studio.batches.resume('b');
      await vi.waitFor(async () => expect((await studio.batches.get('b'))?.state).toBe('finished'), HANG_GUARD);
      expect((await studio.batches.get('b'))!.rows.every((r) => r.state === 'done')).toBe(true);
      expect(await sandboxJobs(em)).toBe(before + NEW_ROWS_IN_LINE + 2);
    } finally {
      await studio.stop();
    }
  });

  it('lets the next batch on the connection start after a Cancel', async () => {
    const em = sandbox();
    const hold = heldStarts();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')), undefined, hold.wrap);
    try {
      // As many batches as new rows may start at once, each cancelled while its first row is started.
      for (let stop = 0; stop < NEW_ROWS_IN_LINE; stop += 1) {
        const id = `cancelled-${stop}`;
        await studio.batches.create({ id, ...lines(2) });
        const held = hold.arm();
        const running = studio.rows.run('batch', id);
        await held.atStart;
        const cancelling = studio.batches.cancel(id);
        await vi.waitFor(async () => expect((await studio.batches.get(id))?.state).toBe('cancelled'), HANG_GUARD);
        held.letGo();
        await cancelling;
        await running;
        await studio.rows.idle();
      }

      await studio.batches.create({ id: 'next', ...lines(2) });
      void studio.rows.run('batch', 'next');
      await vi.waitFor(async () => expect((await studio.batches.get('next'))?.state).toBe('finished'), HANG_GUARD);
      expect((await studio.batches.get('next'))!.rows.every((r) => r.state === 'done')).toBe(true);
    } finally {
      await studio.stop();
    }
  });
});
