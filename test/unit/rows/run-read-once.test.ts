import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../electron/common/bridge/jobs';
import { readOnce } from '../../../electron/services/rows/engine/run-finish';
import type { RunMemory } from '../../../electron/services/rows/engine/run-memory';

/** The engine's run cache as the row engine sees it: a run's jobs, held once read until released. */
function cachedJobs() {
  const held = new Set<string>();
  return {
    held,
    list: (_match: unknown, scope: { runId?: string }): JobView[] => {
      if (scope.runId) held.add(scope.runId);
      return [];
    },
    releaseRun: (id: string) => void held.delete(id),
  };
}

const memoryOf = (states: Record<string, string>) =>
  ({
    inMemory: (_kind: string, id: string) => (id in states ? { state: states[id] } : undefined),
  }) as unknown as RunMemory;

describe("a view's read of a run's jobs", () => {
  // Fails when readOnce stops releasing: a page of finished batches would hold every one's jobs.
  it('leaves nothing held for a run that is not running, and leaves a running run its rows read', () => {
    const jobs = cachedJobs();
    const memory = memoryOf({ done: 'finished', paused: 'paused', going: 'running' });
    for (const id of ['done', 'paused', 'going', 'not-loaded']) readOnce(memory, jobs, ['batch', 'campaign'], id);
    expect([...jobs.held]).toEqual(['going']);
  });
});
