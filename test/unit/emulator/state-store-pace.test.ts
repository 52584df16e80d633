// The sandbox's records file holds every job, so a long campaign makes each write slower: a slow write
// is followed by a pause before the next, and nothing is lost when the sandbox closes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StateStore } from '../../../electron/emulator/state/store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const written = () => JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { jobs: Record<string, unknown> };

describe("the sandbox's records file", () => {
  it('waits four times as long as a slow write took before the next, and writes all at close', async () => {
    let now = 0;
    // Each write reads the clock twice, 50 ms apart: every write is a slow one.
    const store = new StateStore(
      dir,
      () => undefined,
      () => (now += 50),
    );
    (store.state.jobs as Record<string, unknown>).a = { id: 'a' };
    store.changed();
    await vi.advanceTimersToNextTimerAsync();
    expect(Object.keys(written().jobs)).toEqual(['a']);

    (store.state.jobs as Record<string, unknown>).b = { id: 'b' };
    store.changed();
    await vi.advanceTimersByTimeAsync(150);
    // A quick second write would have followed at once; after a 50 ms one, it waits 200 ms.
    expect(Object.keys(written().jobs)).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(100);
    expect(Object.keys(written().jobs)).toEqual(['a', 'b']);

    (store.state.jobs as Record<string, unknown>).c = { id: 'c' };
    store.changed();
    store.close();
    expect(Object.keys(written().jobs)).toEqual(['a', 'b', 'c']);
  });
});
