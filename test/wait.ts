// Waiting in tests: for the thing a test needs, never for a fixed time. Every limit here is a hang guard,
// far longer than the step takes on a quiet machine, so a busy or slow machine changes how long a test
// takes and never its verdict; when a guard does fire, its error names what was awaited.
import { vi } from 'vitest';

/** The default guard of one wait: ten times and more what any awaited step takes on a quiet machine. */
export const HANG_GUARD_MS = 60_000;

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
