import { describe, expect, it } from 'vitest';
import { call, dataOf, start, until } from './harness';

describe('the sandbox closes with a backlog of jobs', () => {
  it('stops while more jobs wait for a worker than it has workers', async () => {
    // 12 s jobs are queued for 3 s, then wait for one of the three workers and hold it until their end:
    // eight of them leave five waiting behind the workers when the sandbox is closed (a host quitting
    // mid-batch). A job says "processing" only once a worker has it, so from 3 s after the last create
    // until 12 s after the first, three are processing and five queueing. The look must come after every
    // job's 3 s are over (the sandbox runs in this process, so their timers have fired by then), or the
    // five could still be in their first quarter rather than behind the workers.
    const em = await start({ jobSeconds: 12 });
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      ids.push(
        dataOf(
          await call(em, 'audioCreate', { input_text: `Backlog row ${i + 1}.`, voice_id: 'sandbox_ava', rate: '50%' }),
        )._id as string,
      );
    }
    const lastCreated = Date.now();
    const statuses = () =>
      Promise.all(ids.map(async (id) => dataOf(await call(em, 'audioInfo', { audio_model_id: id })).status as number));
    const count = (all: number[], status: number) => all.filter((s) => s === status).length;
    await until(
      statuses,
      (all) => Date.now() > lastCreated + 3_500 && count(all, 2) === 3 && count(all, 1) === 5,
      undefined,
      'three jobs processing and five waiting for a worker',
    );
    // A close that waited for the queued ones too would never settle, and the test would time out.
    await expect(em.close()).resolves.toBeUndefined();
  });
});
