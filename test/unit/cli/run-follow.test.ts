// The plain progress line of a long run (stderr a log file): one read of the run's status at each tick of
// its timer, except that a read that took long skips the ticks until 29 times its length has passed, as
// a 100,000-row campaign's status takes about half a second to sum on the studio's thread.
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../electron/cli/command';
import { followRun, PLAIN_PROGRESS_MS } from '../../../electron/cli/commands/run-follow';
import { runProgress } from '../../../electron/common/jobs/run-progress';

const none = { done: 0, failed: 0, underWay: 1, waiting: 1, refused: 0, cancelled: 0 };
const progress = runProgress(
  { tally: none, doneAt: [], running: true, sendingSince: 0, spent: 0, rowCharge: null, rowPrice: null },
  0,
);

/** A run that stays running until `end`, whose reads each take `readMs` of real time. */
function slowRun(readMs: number) {
  let reads = 0;
  let changed: (state: string) => void = () => {};
  const run = {
    read: async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, readMs));
      return { state: 'running', progress, charged: 0 };
    },
    watch: (on: (state: string) => void) => {
      changed = on;
      return () => {};
    },
    lost: new Promise<never>(() => {}),
  };
  return { run, reads: () => reads, end: () => changed('finished') };
}

function logIo() {
  const lines: string[] = [];
  let tick: () => void = () => {};
  const io: CliIo = {
    out: () => {},
    err: (text) => lines.push(text),
    env: {},
    cwd: '/',
    terminal: false,
    every: (_ms, onTick) => {
      tick = onTick;
      return () => {};
    },
  };
  return { io, lines, tick: () => tick() };
}

const lineWritten = async (lines: string[], count: number) => {
  while (lines.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the plain progress line', () => {
  it(`skips the ticks after a read of more than ${PLAIN_PROGRESS_MS / 29} ms until 29 times its length has passed`, async () => {
    // 200 ms or more of real time (a busier machine only makes it longer): the next read waits 5.8 s or more.
    const { run, reads, end } = slowRun(200);
    const log = logIo();
    const following = followRun(run, log.io, { json: false });
    log.tick();
    await lineWritten(log.lines, 1);
    const after = reads();
    log.tick();
    log.tick();
    expect(reads()).toBe(after);
    expect(log.lines).toHaveLength(1);
    end();
    await following;
  });
});
