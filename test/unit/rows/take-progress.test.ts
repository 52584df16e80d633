// Issue 67: a take's steps are kept in its BullMQ job's data (job.updateData) while a worker makes it, so
// the worker that takes the row over after that one is killed starts from the step it stood at, with
// what the steps before made, rather than from the row as the studio handed it. Real Redis and BullMQ:
// the first worker is closed mid-row without ending it, and the second gets the row by BullMQ's
// stalled-job recovery. The jobs made so far travel with the progress, so the row's report still
// carries every job made for it (the operator's sequence found a taken-over row's voiceovers in no ledger).
import { Job } from 'bullmq';
import { describe, expect, it, vi } from 'vitest';
import type { JobView } from '@common/bridge/jobs';
import type { RowBase, RunBase } from '../../../electron/services/rows/engine/row-kind';
import { RowTakes, takeJobId, type RowTake } from '../../../electron/services/rows/queue/row-takes';
import { holdRow } from './held-row';
import { RowWorker, type RowMaker } from '../../../electron/services/rows/queue/row-worker';
import { RunShelf } from '../../../electron/services/rows/queue/run-shelf';
import { redisClients, redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

type VoicedRow = RowBase & { voiceovers: Record<string, string> };

/** A running campaign on the queue's shelf, as the studio that queued it leaves it for its workers. */
async function runningCampaign(space: string, id: string): Promise<void> {
  await new RunShelf(client(), space).putRun('campaign', {
    id,
    createdAt: 0,
    state: 'running',
    rows: [],
  } as RunBase<RowBase>);
}

describe("a take's progress at the queue", () => {
  it('is in the job while the row is made, and the worker that takes the row over starts from it', async () => {
    const space = prefix();
    const at = { kind: 'campaign', runId: 'c1', row: 0, take: 0 };
    await runningCampaign(space, 'c1');
    const handed: VoicedRow = { row: 0, state: 'voiceover', take: 0, problems: [], voiceovers: {} };
    const voiced: VoicedRow = { ...handed, state: 'video', voiceovers: { s1: 'https://sandbox/voice-1.mp3' } };
    // What the first worker made for the row (its voiceover), and what the second makes (its video).
    const voiceover = { id: 'j-w1-1', remoteId: 'r-voice', kind: 'tts' } as JobView;
    const video = { id: 'j-w2-1', remoteId: 'r-video', kind: 'avatar-video' } as JobView;
    // Jobs given as a question are read only for a change that is written: the same row again reads none.
    let readAgain = 0;
    let letGo = (): void => undefined;
    const never = new Promise<never>((_, reject) => (letGo = () => reject(new Error('the test ended'))));
    never.catch(() => undefined);
    // The first worker voices the row, says so, then hangs on its video until it is closed (killed).
    const first: RowMaker = {
      kind: 'campaign',
      make: async (_run, row, live) => {
        live.progress({ ...row, state: 'voiceover' });
        live.progress(voiced, () => [voiceover]);
        live.progress({ ...voiced }, () => {
          readAgain += 1;
          return [voiceover, video];
        });
        return never;
      },
    };
    const given: RowBase[] = [];
    const second: RowMaker = {
      kind: 'campaign',
      make: async (_run, row) => {
        given.push(row);
        return { outcome: 'ended', record: { ...row, state: 'done' }, jobs: [video] };
      },
    };
    const studio = new RowTakes({ url: redis().url, prefix: space });
    const workers = [first, second].map(
      (maker, n) =>
        new RowWorker({ url: redis().url, prefix: space, makers: [maker], id: `w${n + 1}`, stallMs: 1_000 }),
    );
    try {
      await holdRow(client(), space, 'campaign', 'c1', 0);
      await studio.hand({ kind: 'campaign', runId: 'c1', row: handed });
      workers[0].start();
      // The step reached is in the job itself, not only in the worker's memory.
      await until("the row's step kept in its job's data", async () => {
        const job = await Job.fromId<RowTake>(studio.queue, takeJobId(at));
        return job?.data.row.state === 'video';
      });
      const kept = await Job.fromId<RowTake>(studio.queue, takeJobId(at));
      expect(kept?.data.row).toEqual(voiced);
      expect(kept?.data.jobs).toEqual([voiceover]);
      expect(readAgain).toBe(0);

      await workers[0].stopWithin(0);
      workers[1].start();
      await until('the row made by the worker that took it over', async () => (await studio.report(at)) !== null);
      expect(given).toEqual([voiced]);
      const report = await studio.report(at);
      expect(report?.worker).toBe('w2');
      // The voiceover the first worker made goes to the studio too: the second worker's ledger has it not.
      expect(report?.jobs?.map((job) => job.remoteId)).toEqual(['r-voice', 'r-video']);
    } finally {
      letGo();
      await Promise.all(workers.map((w) => w.stopWithin(0)));
      await studio.closeWithin(0);
    }
  });

  it('writes changes made while a write is on its way together, as the row then stands', async () => {
    const space = prefix();
    const at = { kind: 'campaign', runId: 'c2', row: 0, take: 0 };
    await runningCampaign(space, 'c2');
    const handed: VoicedRow = { row: 0, state: 'voiceover', take: 0, problems: [], voiceovers: {} };
    const steps = ['a', 'b', 'c', 'd', 'e'].map((s, i) => ({
      ...handed,
      state: i === 4 ? 'video' : 'voiceover',
      voiceovers: { [s]: `https://sandbox/voice-${s}.mp3` },
    }));
    const voiceover = { id: 'j-1', remoteId: 'r-voice', kind: 'tts' } as JobView;
    let finish = (): void => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const maker: RowMaker = {
      kind: 'campaign',
      make: async (_run, row, live) => {
        // Five changes in one turn: the first is written at once, the four after it wait for it and go as one.
        for (const step of steps) live.progress(step, () => [voiceover]);
        await finished;
        return { outcome: 'ended', record: { ...row, state: 'done' }, jobs: [voiceover] };
      },
    };
    const writes = vi.spyOn(Job.prototype, 'updateData');
    const studio = new RowTakes({ url: redis().url, prefix: space });
    const worker = new RowWorker({ url: redis().url, prefix: space, makers: [maker], id: 'w1', stallMs: 1_000 });
    try {
      await holdRow(client(), space, 'campaign', 'c2', 0);
      await studio.hand({ kind: 'campaign', runId: 'c2', row: handed });
      worker.start();
      await until("the row's last change kept in its job's data", async () => {
        const job = await Job.fromId<RowTake>(studio.queue, takeJobId(at));
        return job?.data.row.state === 'video';
      });
      const kept = await Job.fromId<RowTake>(studio.queue, takeJobId(at));
      expect(kept?.data.row).toEqual(steps[4]);
      expect(kept?.data.jobs).toEqual([voiceover]);
      expect(writes.mock.calls.map(([data]) => (data as RowTake).row)).toEqual([steps[0], steps[4]]);
      finish();
      await until('the row reported', async () => (await studio.report(at)) !== null);
    } finally {
      writes.mockRestore();
      finish();
      await worker.stopWithin(0);
      await studio.closeWithin(0);
    }
  });
});
