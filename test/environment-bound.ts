// A test that needs something this machine may lack (root, a mount, a system tool) skips itself here,
// naming what it needs: `npm test` lists each such skip with its reason and counts them in its last line.
import type { TestContext } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    skipReason?: string;
  }
}

/** Skips the running test unless `available`, with "needs …" as the reason the run's summary prints. */
export function skipUnless(context: TestContext, available: boolean, needs: string): void {
  if (available) return;
  const reason = `needs ${needs}`;
  context.task.meta.skipReason = reason;
  context.skip(reason);
}
