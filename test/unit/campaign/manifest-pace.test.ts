// A campaign's manifest covers every row, so a write costs more as the run goes on: after a slow write
// the next one waits, and the rows that end meanwhile go into it; a finish, a cancel and a quit do not wait.
import { afterEach, assert, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CampaignRecord } from '@common/campaign/record';
import { ManifestWriter } from '../../../electron/services/campaign/manifest-writer';

/** A campaign of ten rows, the first `ended` of them done. */
const campaign = (ended: number): CampaignRecord =>
  ({
    id: 'paced',
    rows: Array.from({ length: 10 }, (_, row) => ({
      row,
      fileName: `${row}.mp4`,
      state: row < ended ? 'done' : 'video',
    })),
  }) as unknown as CampaignRecord;
const endedIn = (record: CampaignRecord) => record.rows.filter((r) => r.state === 'done').length;

/** A writer whose writes each take `took` ms by its clock, and which records how many rows had ended in each. */
function writer(took: number, fail: (attempt: number) => boolean = () => false) {
  let now = 0;
  const written: number[] = [];
  const warnings: string[] = [];
  let attempts = 0;
  const manifests = new ManifestWriter({
    jobs: () => [],
    others: async () => [],
    clock: () => now,
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => warnings.push(message),
      error: () => undefined,
    },
    write: async (record) => {
      now += took;
      attempts += 1;
      if (fail(attempts)) throw new Error('disk full');
      written.push(endedIn(record));
      return 'manifest.csv';
    },
  });
  return { manifests, written, warnings };
}

/** A slow first write done: the next row that ends starts a pause of 99 × 150 ms. */
async function pausing() {
  const paced = writer(150);
  paced.manifests.changed(campaign(1));
  await vi.advanceTimersByTimeAsync(0);
  expect(paced.written).toEqual([1]);
  paced.manifests.changed(campaign(2));
  await vi.advanceTimersByTimeAsync(150);
  expect(paced.written).toEqual([1]);
  return paced;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a running campaign's manifest", () => {
  it('waits 99 times as long as the last write took, and writes the rows that ended meanwhile in one write', async () => {
    const { manifests, written } = await pausing();
    for (const ended of [3, 4, 5]) {
      manifests.changed(campaign(ended));
      await vi.advanceTimersByTimeAsync(4_880);
    }
    // 150 + 3 × 4,880 = 14,790 ms into the 14,850 ms pause: nothing written yet.
    expect(written).toEqual([1]);
    await vi.advanceTimersByTimeAsync(60);
    expect(written).toEqual([1, 5]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(written).toEqual([1, 5]);
  });

  // Fails when every change is compared with the last (a walk of every row: most of a change's cost in
  // a 100,000-row campaign): the rows given while a write waits throw when read.
  it('reads no change while a write waits, and compares the next one with the rows written', async () => {
    const { manifests, written } = await pausing();
    const unread = new Proxy([], {
      get: (target, key) =>
        key === 'length' ? 10 : (Reflect.get(target, key) ?? assert.fail(`row ${String(key)} read`)),
    });
    expect(() => manifests.changed({ ...campaign(2), rows: unread } as unknown as CampaignRecord)).not.toThrow();
    manifests.changed(campaign(5));
    await vi.advanceTimersByTimeAsync(14_850);
    expect(written).toEqual([1, 5]);
    // Nothing ended since that write: nothing to write.
    manifests.changed(campaign(5));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(written).toEqual([1, 5]);
  });

  it('never waits more than 30 s, however slow the last write was, nor less than 1 s, however fast', async () => {
    const fast = writer(10);
    fast.manifests.changed(campaign(1));
    await vi.advanceTimersByTimeAsync(0);
    fast.manifests.changed(campaign(2));
    await vi.advanceTimersByTimeAsync(999);
    expect(fast.written).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fast.written).toEqual([1, 2]);
    // A 200 ms write (a manifest of tens of thousands of rows) is followed by 99 times its length: a
    // hundredth of the thread (nobody reads the file before the run ends, which writes it at once).
    const slow = writer(200);
    slow.manifests.changed(campaign(1));
    await vi.advanceTimersByTimeAsync(0);
    slow.manifests.changed(campaign(2));
    await vi.advanceTimersByTimeAsync(19_799);
    expect(slow.written).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(slow.written).toEqual([1, 2]);
    const { manifests, written } = writer(5_000);
    manifests.changed(campaign(1));
    await vi.advanceTimersByTimeAsync(0);
    manifests.changed(campaign(2));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(written).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([1, 2]);
  });

  it('writes at once for the finish or a cancel, cutting the pause short, and resolves once that record is written', async () => {
    const { manifests, written } = await pausing();
    let done = false;
    void manifests.now(campaign(6)).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1, 6]);
    expect(done).toBe(true);
  });

  it('writes what waits at once when the host stops', async () => {
    const { manifests, written } = await pausing();
    let stopped = false;
    void manifests.idle().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1, 2]);
    expect(stopped).toBe(true);
  });

  it('logs a write that failed, and writes again at the next row that ends', async () => {
    const { manifests, written, warnings } = writer(0, (attempt) => attempt === 1);
    manifests.changed(campaign(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(warnings).toEqual(['the campaign manifest was not written']);
    expect(written).toEqual([]);
    manifests.changed(campaign(2));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([2]);
  });

  it('writes for a row that ended or was made again, not for a step of a row under way', async () => {
    const { manifests, written } = writer(0);
    const first = campaign(2);
    manifests.changed(first);
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([2]);
    // Row 5 goes from its video to its download: nothing the manifest says changed.
    const step = { ...first, rows: first.rows.map((r) => (r.row === 5 ? { ...r, state: 'download' as const } : r)) };
    manifests.changed(step);
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([2]);
    // Row 0 is made again: its line says so (after the shortest pause).
    manifests.changed({
      ...step,
      rows: step.rows.map((r) => (r.row === 0 ? { ...r, state: 'voiceover' as const } : r)),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([2, 1]);
  });
});
