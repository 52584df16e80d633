import { describe, expect, it } from 'vitest';
import { call, dataOf, start, until } from './harness';

describe('the sandbox closes with a backlog of jobs', () => {
  it('stops while more jobs are processing than it has workers', async () => {
    // 12 s jobs turn to processing after 3 s and hold a worker until their end: eight of them leave five
    // waiting behind the three workers when the sandbox is closed (a host quitting mid-batch). All eight
    // are processing from 3 s after the last create until 12 s after the first: the creates and the
    // looks below have those 9 s (with 4 s jobs, 3 s: a busy machine could miss the moment altogether).
    const em = await start({ jobSeconds: 12 });
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      ids.push(
        dataOf(
          await call(em, 'audioCreate', { input_text: `Backlog row ${i + 1}.`, voice_id: 'sandbox_ava', rate: '50%' }),
        )._id as string,
      );
    }
    const statuses = () =>
      Promise.all(ids.map(async (id) => dataOf(await call(em, 'audioInfo', { audio_model_id: id })).status as number));
    await until(statuses, (all) => all.every((s) => s === 2), undefined, 'all eight jobs to be processing');
    // A close that waited for the queued ones too would never settle, and the test would time out.
    await expect(em.close()).resolves.toBeUndefined();
  });
});
