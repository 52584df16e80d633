import { describe, expect, it } from 'vitest';
import { InProcessRowQueue, type RowTask } from '../../../electron/services/rows/engine/row-queue';

/** A step the test ends by hand; `started(n)` settles once n steps have started (an event, not a wait). */
function handWorker() {
  const running: { task: RowTask; end: () => void }[] = [];
  const ran: string[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const worker = (task: RowTask) =>
    new Promise<void>((end) => {
      ran.push(`${task.runId}/${task.row}`);
      running.push({ task, end });
      for (const w of waiting.filter((x) => ran.length >= x.n)) w.resolve();
    });
  const started = (n: number) =>
    ran.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }));
  return { worker, running, ran, started };
}

describe("the row engine's queue of row steps", () => {
  it("never runs one row's steps at once, and runs a row asked for during its step once more after it", async () => {
    const queue = new InProcessRowQueue();
    const { worker, running, ran, started } = handWorker();
    const task = { kind: 'batch', runId: 'b', row: 0 };
    queue.push(task);
    queue.push(task);
    queue.push(task);
    queue.start(worker);
    await started(1);
    // Asked for three times while it waited: one step.
    expect(ran).toEqual(['b/0']);
    queue.push(task);
    queue.push(task);
    running.shift()?.end();
    // The two asks during the step are one more run, not two, and not while the first ran.
    await started(2);
    expect(running).toHaveLength(1);
    running.shift()?.end();
    await queue.idle();
    expect(ran).toEqual(['b/0', 'b/0']);
  });

  it('runs different rows side by side, and forgets what waits of a dropped run', async () => {
    const queue = new InProcessRowQueue();
    const { worker, running, ran, started } = handWorker();
    queue.push({ kind: 'batch', runId: 'b', row: 0 });
    queue.push({ kind: 'campaign', runId: 'c', row: 0 });
    queue.drop('batch', 'b');
    queue.start(worker);
    await started(1);
    expect(ran).toEqual(['c/0']);
    queue.push({ kind: 'batch', runId: 'b', row: 1 });
    queue.push({ kind: 'batch', runId: 'b', row: 2 });
    // Both start while c/0 still runs.
    await started(3);
    expect(new Set(ran)).toEqual(new Set(['c/0', 'b/1', 'b/2']));
    for (const step of running.splice(0)) step.end();
    await queue.idle();
    expect(ran).toHaveLength(3);
  });
});
