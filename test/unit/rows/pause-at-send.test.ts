// Pause holds back a create already past its run's last check: the row's create is on its way (its
// record being written to the ledger, its turn at the connection still to come) when the user pauses.
// The create does not leave: the sandbox makes nothing, and Pause answers once that is known (the
// ledger keeps no record of it, the row waits again, not failed). Resumed, the row is made once.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import type { LedgerStorage } from '../../../electron/services/jobs/ledger';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost, lines, sandboxJobs } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-pause-at-send-', { jobSeconds: 0.1, readyMade: true });
const HANG_GUARD = { timeout: 60_000, interval: 20 };

/** A ledger whose first write of a batch row's create waits until the test lets it go. */
function heldLedger(file: LedgerStorage) {
  let reached: () => void = () => undefined;
  let letGo: () => void = () => undefined;
  const atWrite = new Promise<void>((resolve) => (reached = resolve));
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  let held = false;
  const ledger: LedgerStorage = {
    loadAll: () => file.loadAll(),
    find: (scope) => file.find(scope),
    charges: (from) => file.charges(from),
    remove: (id) => file.remove(id),
    flush: () => file.flush(),
    put: async (record: JobRecord) => {
      if (!held && record.purpose.type === 'batch-row' && record.phase === 'submitting') {
        held = true;
        reached();
        await gate;
      }
      return file.put(record);
    },
  };
  return { ledger, atWrite, letGo };
}

describe("Pause pressed while a row's create is on its way", () => {
  it('holds the create back, fails nothing, and the row is made once after Resume', async () => {
    const em = sandbox();
    const held = heldLedger.bind(null);
    let gate: ReturnType<typeof heldLedger> | undefined;
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')), (file) => {
      gate = held(file);
      return gate.ledger;
    });
    try {
      const before = await sandboxJobs(em);
      await studio.batches.create({ id: 'b', ...lines(1) });
      const running = studio.rows.run('batch', 'b');
      // The row passed every check of its run and its create's record is being written.
      await gate!.atWrite;
      const pausing = studio.batches.pause('b');
      await vi.waitFor(async () => expect((await studio.batches.get('b'))?.state).toBe('paused'), HANG_GUARD);
      gate!.letGo();
      // Pause answers once the create's fate is known: held back, its record gone, its row waiting again.
      const paused = await pausing;
      expect(paused.state).toBe('paused');
      expect(studio.engine.records((r) => r.purpose.type === 'batch-row')).toEqual([]);
      expect((await studio.batches.get('b'))!.rows[0].state).toBe('pending');
      await running;
      await studio.rows.idle();
      expect(await sandboxJobs(em)).toBe(before);

      await studio.batches.resume('b');
      await vi.waitFor(async () => expect((await studio.batches.get('b'))?.state).toBe('finished'), HANG_GUARD);
      expect(await sandboxJobs(em)).toBe(before + 1);
      expect([...studio.created().values()]).toEqual([1]);
    } finally {
      await studio.stop();
    }
  });
});
