// The one batcher of the records' stores: the changes of one event-loop turn in one commit, a commit at
// once for a caller that must not wait for the turn's end, and a failed commit told to its own callers.
import { describe, expect, it } from 'vitest';
import { TurnCommits } from '../../../electron/services/records/turn-commits';

/** A batcher of numbers whose commits are recorded, and which fails a batch holding a negative number. */
function recorder(): { commits: TurnCommits<number[]>; committed: number[][] } {
  const committed: number[][] = [];
  const commits = new TurnCommits<number[]>(
    () => [],
    (batch) => {
      if (batch.some((n) => n < 0)) throw new Error(`refused ${batch.join(',')}`);
      committed.push(batch);
    },
  );
  return { commits, committed };
}

const nextTurn = (): Promise<void> => new Promise((done) => setImmediate(done));

describe('the changes of a turn committed together', () => {
  it('commits the changes asked for within one turn in one commit, and the next turn in another', async () => {
    const { commits, committed } = recorder();
    const first = [1, 2, 3].map((n) => commits.add((batch) => batch.push(n)));
    // Still this turn, after the callers' own awaits: the same batch.
    await Promise.resolve();
    first.push(commits.add((batch) => batch.push(4)));
    expect(committed).toEqual([]);
    await Promise.all(first);
    expect(committed).toEqual([[1, 2, 3, 4]]);
    await commits.add((batch) => batch.push(5));
    expect(committed).toEqual([[1, 2, 3, 4], [5]]);
  });

  it('settles a change only once its batch is committed', async () => {
    const { commits, committed } = recorder();
    let settled = false;
    void commits.add((batch) => batch.push(1)).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await commits.flush();
    expect(settled).toBe(true);
    expect(committed).toEqual([[1]]);
  });

  it('commits at once when asked, before returning, and the turn then has nothing left to commit', async () => {
    const { commits, committed } = recorder();
    const done = commits.add((batch) => batch.push(1));
    commits.now();
    expect(committed).toEqual([[1]]);
    await done;
    await nextTurn();
    expect(committed).toEqual([[1]]);
    // Nothing asked for: nothing committed.
    commits.now();
    expect(committed).toEqual([[1]]);
  });

  it("rejects every change of a failed batch with the commit's error, and no change of another batch", async () => {
    const { commits, committed } = recorder();
    const failed = [commits.add((batch) => batch.push(1)), commits.add((batch) => batch.push(-1))];
    const results = await Promise.allSettled(failed);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('refused 1,-1');
    // The next batch starts empty: the failed change is not carried into it.
    await expect(commits.add((batch) => batch.push(2))).resolves.toBeUndefined();
    expect(committed).toEqual([[2]]);
  });

  it('tells a failure of a commit made at once to its callers, not to the caller of now', async () => {
    const { commits } = recorder();
    const done = commits.add((batch) => batch.push(-1));
    expect(() => commits.now()).not.toThrow();
    await expect(done).rejects.toThrow('refused -1');
  });

  it('flush waits for a commit asked for while the previous one was awaited', async () => {
    const { commits, committed } = recorder();
    void commits.add((batch) => batch.push(1));
    const flushed = commits.flush();
    await nextTurn();
    void commits.add((batch) => batch.push(2));
    await flushed;
    await commits.flush();
    expect(committed).toEqual([[1], [2]]);
  });
});
