// Waiting in tests: for the thing a test needs, never for a fixed time. Every limit here is a hang guard,
// far longer than the step takes on a quiet machine, so a busy or slow machine changes how long a test
// takes and never its verdict; when a guard does fire, its error names what was awaited.
import { vi } from 'vitest';

/** The default guard of one wait: ten times and more what any awaited step takes on a quiet machine. */
export const HANG_GUARD_MS = 60_000;

/**
 * The guard of a whole test that runs ffmpeg over and over (a corpus of files, a campaign's mixes): such
 * a test takes 60-100 s beside two busy processes, so the suite's 120 s default is no hang guard for it.
 */
export const MEDIA_TEST_GUARD_MS = 600_000;

/**
 * Settles once `check` holds, looking again every 50 ms (vitest's waitFor). Fails only after `guardMs`,
 * with an error that says what never happened (and the check's own last error, if it threw).
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  guardMs = HANG_GUARD_MS,
): Promise<void> {
  await vi.waitFor(
    async () => {
      let last: unknown;
      try {
        if (await check()) return;
      } catch (error) {
        last = error;
      }
      const because = last === undefined ? '' : ` (last check: ${last instanceof Error ? last.message : String(last)})`;
      throw new Error(`waited ${Math.round(guardMs / 1000)} s for ${what}, and it did not happen${because}`);
    },
    { timeout: guardMs, interval: 50 },
  );
}

/** The value `read` gives once it is defined (not undefined or null), waiting as `until` does. */
export async function whenDefined<T>(
  what: string,
  read: () => T | undefined | null | Promise<T | undefined | null>,
  guardMs = HANG_GUARD_MS,
): Promise<T> {
  let value: T | undefined | null;
  await until(
    what,
    async () => {
      value = await read();
      return value !== undefined && value !== null;
    },
    guardMs,
  );
  return value as T;
}

/**
 * Settles once the number `read` gives reaches `target`. Long work on a busy machine may take any time,
 * so the guard is on progress: it fails only after `stallMs` in which nothing moved, by `read` itself or
 * by `moving` (a finer count that moves between two steps of `read`, such as jobs ended between rows done).
 * `orStill` also settles it once the count is at least `least` and has held still for `ms`: a count that
 * something else bounds (rows under way, bounded by the pace of rows ended, which a busy machine slows)
 * may stop short of the target, and how short depends on the machine, not on what is tested.
 */
export async function untilReaches(
  what: string,
  read: () => Promise<number>,
  target: number,
  {
    stallMs = HANG_GUARD_MS,
    moving,
    orStill,
  }: { stallMs?: number; moving?: () => number | Promise<number>; orStill?: { least: number; ms: number } } = {},
): Promise<number> {
  let [last, lastMoved, movedAt] = [-Infinity, -Infinity, Date.now()];
  for (;;) {
    const now = await read();
    if (now >= target) return now;
    if (now !== last) [last, movedAt] = [now, Date.now()];
    else if (orStill && now >= orStill.least && Date.now() - movedAt >= orStill.ms) return now;
    else if (moving) {
      // The finer count is read only while the count itself stands still (it may cost more to read).
      const finer = await moving();
      if (finer !== lastMoved) [lastMoved, movedAt] = [finer, Date.now()];
    }
    if (Date.now() - movedAt > stallMs)
      throw new Error(
        `waited for ${what} to reach ${target}; it stayed at ${last} for ${Math.round(stallMs / 1000)} s`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
