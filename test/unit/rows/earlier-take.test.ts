// Issue 67: a row made again (a retry of a row its studio failed) whose earlier take a worker finished
// while the report waited at the queue takes that take in instead of paying for it again, but only when the
// row still asks for what that take was made from. A row whose values changed since (a sheet fixed and
// run again) had the earlier take's video taken in as its own. Real Redis, the real row engine, queued
// runs and run records; a row kind of its own whose rows carry one value.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge/jobs';
import { QueuedRuns } from '../../../electron/services/rows/queue/queued-runs';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import type { RowBase, RowKind, RunBase } from '../../../electron/services/rows/engine/row-kind';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { RowTakes, takeJobId, type RowTake } from '../../../electron/services/rows/queue/row-takes';
import { Job } from 'bullmq';
import { reportedTake } from './reported-take';
import { redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';
import { runsIn } from './folder-runs';

const redis = redisPerFile();
const KIND = 'greetings';
let made = 0;

type Greeting = RowBase & { value: string };
type Greetings = RunBase<Greeting>;

function greetingsKind(dataDir: string): RowKind<Greeting, Greetings> {
  return {
    name: KIND,
    runs: runsIn(dataDir).of<Greeting, Greetings>(KIND, (raw) => raw as Greetings),
    rowOf: () => null,
    firstStep: () => 'queued',
    step: () => Promise.reject(new Error('a queued row is made by its worker')),
    cancelled: (row) => ({ ...row, state: 'cancelled' }),
    redo: (row) => ({ ...row, state: 'pending', take: row.take + 1 }),
    queued: {
      local: () => false,
      received: (row, reported) => ({ ...row, state: reported.state }),
      sameMaking: (row, reported) => row.value === reported.value,
    },
  };
}

/**
 * A row at its second take (value `now`) whose first take (value `then`) a worker made: its report waits at
 * the queue with the first take's job. The studio then runs the row.
 */
async function retried(now: string, then: string) {
  const prefix = `earlier-take-${process.pid}-${(made += 1)}`;
  const client = new Redis(redis().url);
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-earlier-take-'));
  const first: Greeting = { row: 0, state: 'queued', take: 0, problems: [], value: then };
  const row: Greeting = { ...first, take: 1, value: now };
  const run: Greetings = { id: `greetings-${made}`, createdAt: 1, state: 'running', rows: [row], queue: redis().url };
  const shelf = new RunShelf(client, prefix);
  await shelf.putRun(KIND, run);
  await reportedTake(
    redis().url,
    prefix,
    { kind: KIND, runId: run.id, row: first },
    {
      row: 0,
      take: 0,
      outcome: 'ended',
      record: { ...first, state: 'done' },
      jobs: [{ id: 'w-job-1', remoteId: 'r-1' } as JobView],
      worker: 'w1',
    },
  );
  const takes = new RowTakes({ url: redis().url, prefix });
  const at = (take: number) => ({ kind: KIND, runId: run.id, row: 0, take });
  const received: string[] = [];
  const queues = new QueuedRuns({ prefix });
  const jobs = {
    list: () => [],
    submit: () => Promise.reject(new Error('a queued row sends nothing from its studio')),
    receive: async (taken: readonly JobView[]) => void received.push(...taken.map((j) => j.remoteId ?? '')),
  };
  const engine = new RowEngine({ jobs, remote: queues });
  engine.register(greetingsKind(dataDir));
  await engine.create(KIND, run);
  // A row handed to the queue waits for a worker: the run is not awaited, its row's fate is.
  void engine.run(KIND, run.id);
  const stateNow = async () => (await engine.require(KIND, run.id)).rows[0].state;
  await until(
    'the row taken in from the report, or handed to the queue at its new take',
    async () => (await stateNow()) === 'done' || (await takes.look(at(1))) !== null,
    60_000,
  );
  const state = await stateNow();
  const handed = await Job.fromId<RowTake>(takes.queue, takeJobId(at(1)));
  const earlierKept = (await takes.report(at(0))) !== null;
  engine.stop();
  await queues.close();
  await takes.closeWithin(0);
  await client.quit();
  return { state, received, handed: handed?.data.row as Greeting | undefined, earlierKept };
}

describe("a row made again while its earlier take's report waits in Redis", () => {
  it('takes the earlier take in when the row asks for what it was made from', async () => {
    const { state, received, handed, earlierKept } = await retried('Hello Ada', 'Hello Ada');
    expect(state).toBe('done');
    expect(received).toEqual(['r-1']);
    // Nothing handed to the queue again, and the earlier take's job left it once taken in.
    expect(handed).toBeUndefined();
    expect(earlierKept).toBe(false);
  });

  it("hands the row to the queue when its values changed since: the earlier take's video is not its own", async () => {
    const { state, received, handed, earlierKept } = await retried('Hello Grace', 'Hello Ada');
    expect(state).toBe('queued');
    // The earlier take's jobs are in the ledger all the same (they may have been charged), and its job left the queue.
    expect(received).toEqual(['r-1']);
    expect(earlierKept).toBe(false);
    expect(handed?.take).toBe(1);
    expect(handed?.value).toBe('Hello Grace');
  });
});
