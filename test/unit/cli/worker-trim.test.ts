import { afterEach, describe, expect, it, vi } from 'vitest';
import { WORKER_MALLOC, glibcVersion } from '../../../electron/cli/worker-process.mjs';
import { WORKER_TRIM_MS, loadTrim, trimMallocEvery } from '../../../electron/cli/worker-trim';

describe('trimMallocEvery', () => {
  afterEach(() => void vi.useRealTimers());

  it("hands malloc's free pages back every WORKER_TRIM_MS in the worker's child, until stopped", () => {
    vi.useFakeTimers();
    const trim = vi.fn(() => 1);
    const stop = trimMallocEvery({ GLIBC_TUNABLES: WORKER_MALLOC }, () => trim);
    expect(stop).not.toBeNull();
    vi.advanceTimersByTime(WORKER_TRIM_MS * 3);
    expect(trim).toHaveBeenCalledTimes(3);
    expect(trim).toHaveBeenCalledWith(0);
    stop?.();
    vi.advanceTimersByTime(WORKER_TRIM_MS * 3);
    expect(trim).toHaveBeenCalledTimes(3);
  });

  it("does nothing with an operator's own allocator settings, or with nothing to trim with", () => {
    const trim = vi.fn(() => 1);
    expect(trimMallocEvery({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' }, () => trim)).toBeNull();
    expect(trimMallocEvery({}, () => trim)).toBeNull();
    expect(trimMallocEvery({ GLIBC_TUNABLES: WORKER_MALLOC }, () => null)).toBeNull();
    expect(trim).not.toHaveBeenCalled();
  });
});

describe('loadTrim', () => {
  // koffi is an optional dependency: where it installed on glibc, the worker must find malloc_trim with it.
  it.runIf(glibcVersion() !== null)("calls glibc's malloc_trim through koffi", () => {
    const trim = loadTrim();
    expect(trim).not.toBeNull();
    // 1: memory was handed back; 0: there was none to hand back. Anything else is not malloc_trim.
    expect([0, 1]).toContain(trim?.(0));
  });
});
