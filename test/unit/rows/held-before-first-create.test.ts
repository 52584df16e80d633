// A row the engine has just started holds its connection's pacer (no other row starts beside it) until its
// first create joins the request line. A row paused or cancelled in that moment never gets there: its
// step ends before any create. The pacer must be let go then, or no row on the connection ever starts
// again: Resume would leave the run waiting for ever, and so would the next batch after a Cancel.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { RowBase } from '../../../electron/services/rows/engine/row-kind';
import type { RunStore, RunStores, StoredRun } from '../../../electron/services/rows/engine/run-store';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost, lines, sandboxJobs } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-held-first-', { jobSeconds: 0.1, readyMade: true });
const HANG_GUARD = { timeout: 60_000, interval: 20 };

/** Runs' records whose first write of a started row (pending to its first step) waits for the test. */
function heldStart() {
  let reached: () => void = () => undefined;
  let letGo: () => void = () => undefined;
  const atStart = new Promise<void>((resolve) => (reached = resolve));
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  let held = false;
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
        putRun: (run) => store.putRun(run),
        remove: (id) => store.remove(id),
        flush: () => store.flush(),
        putRow: async (run, row) => {
          if (!held && (row as unknown as RowBase).state === 'speech') {
            held = true;
            reached();
            await gate;
          }
          return store.putRow(run, row);
        },
      };
    },
  });
  return { wrap, atStart, letGo };
}

describe('a row stopped between its start and its first create', () => {
  it('lets the next rows start after Resume', async () => {
    const em = sandbox();
    const hold = heldStart();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')), undefined, hold.wrap);
    try {
      const before = await sandboxJobs(em);
      await studio.batches.create({ id: 'b', ...lines(2) });
      const running = studio.rows.run('batch', 'b');
      // The first row is started (in memory) and its step not yet run: the user pauses.
      await hold.atStart;
      const pausing = studio.batches.pause('b');
      await vi.waitFor(async () => expect((await studio.batches.get('b'))?.state).toBe('paused'), HANG_GUARD);
      hold.letGo();
      await pausing;
      await running;
      await studio.rows.idle();
      expect(await sandboxJobs(em)).toBe(before);

      await studio.batches.resume('b');
      await vi.waitFor(async () => expect((await studio.batches.get('b'))?.state).toBe('finished'), HANG_GUARD);
      expect((await studio.batches.get('b'))!.rows.map((r) => r.state)).toEqual(['done', 'done']);
      expect(await sandboxJobs(em)).toBe(before + 2);
    } finally {
      await studio.stop();
    }
  });

  it('lets the next batch on the connection start after a Cancel', async () => {
    const em = sandbox();
    const hold = heldStart();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')), undefined, hold.wrap);
    try {
      await studio.batches.create({ id: 'first', ...lines(2) });
      const running = studio.rows.run('batch', 'first');
      await hold.atStart;
      const cancelling = studio.batches.cancel('first');
      await vi.waitFor(async () => expect((await studio.batches.get('first'))?.state).toBe('cancelled'), HANG_GUARD);
      hold.letGo();
      await cancelling;
      await running;
      await studio.rows.idle();

      await studio.batches.create({ id: 'next', ...lines(2) });
      void studio.rows.run('batch', 'next');
      await vi.waitFor(async () => expect((await studio.batches.get('next'))?.state).toBe('finished'), HANG_GUARD);
      expect((await studio.batches.get('next'))!.rows.map((r) => r.state)).toEqual(['done', 'done']);
    } finally {
      await studio.stop();
    }
  });
});
