import { describe, expect, it } from 'vitest';
import { InProcessRowQueue, type RowTask } from '../../../electron/services/rows/row-queue';

/** A step the test ends by hand. */
function handWorker() {
  const running: { task: RowTask; end: () => void }[] = [];
  const ran: string[] = [];
  const worker = (task: RowTask) =>
    new Promise<void>((end) => {
      ran.push(`${task.runId}/${task.row}`);
      running.push({ task, end });
    });
  return { worker, running, ran };
}

describe('the in-process row queue', () => {
  it("never runs one row's steps at once, and runs a row asked for during its step once more after it", async () => {
    const queue = new InProcessRowQueue();
    const { worker, running, ran } = handWorker();
    queue.start(worker);
    const task = { kind: 'batch', runId: 'b', row: 0 };
    queue.push(task);
    queue.push(task);
    queue.push(task);
    expect(ran).toEqual(['b/0']);
    running.shift()?.end();
    await new Promise((resolve) => setImmediate(resolve));
    // The two pushes during the step are one more run, not two.
    expect(ran).toEqual(['b/0', 'b/0']);
    running.shift()?.end();
    await queue.idle();
    expect(ran).toEqual(['b/0', 'b/0']);
  });

  it('runs different rows side by side, and forgets what waits of a dropped run', async () => {
    const queue = new InProcessRowQueue();
    const { worker, running, ran } = handWorker();
    queue.push({ kind: 'batch', runId: 'b', row: 0 });
    queue.push({ kind: 'campaign', runId: 'c', row: 0 });
    queue.drop('batch', 'b');
    queue.start(worker);
    expect(ran).toEqual(['c/0']);
    queue.push({ kind: 'batch', runId: 'b', row: 1 });
    queue.push({ kind: 'batch', runId: 'b', row: 2 });
    expect(ran).toEqual(['c/0', 'b/1', 'b/2']);
    for (const step of running.splice(0)) step.end();
    await queue.idle();
  });
});
