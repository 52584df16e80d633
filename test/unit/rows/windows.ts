import { HANG_GUARD_MS } from '../../wait';

/** The most instants of `times` that fall in any one window [t, t + ms). */
export function mostInWindow(times: readonly number[], ms = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] as number) - (sorted[start] as number) >= ms) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/**
 * Moves fake time on in small steps, letting real I/O (the runs' journals) land between them, until
 * `done` holds. The hang guard is real time, not a count of steps: on a busy machine a journal write can
 * take longer than thousands of steps, and a count ran out while the work was only waiting for its disk.
 */
export async function advanceUntil(
  advance: (ms: number) => Promise<unknown>,
  done: () => boolean | Promise<boolean>,
  guardMs = HANG_GUARD_MS,
): Promise<void> {
  const until = performance.now() + guardMs;
  while (performance.now() < until) {
    if (await done()) return;
    await advance(50);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`still not done after the hang guard (${guardMs / 1000} s)`);
}
