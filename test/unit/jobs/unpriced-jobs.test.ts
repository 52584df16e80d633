// The completed jobs waiting for a guide of their kind (unpriced-jobs.ts): each is written again when a
// charge that gives one is recorded on its connection, and no more than MOST_WAITING are kept, so a kind
// that never gets a guide (a balance that cannot be read) does not grow a worker's memory with its rows.
import { describe, expect, it } from 'vitest';
import { MOST_WAITING, unpricedJobs } from '../../../electron/services/jobs/unpriced-jobs';

const job = (id: string, more: Partial<Parameters<ReturnType<typeof unpricedJobs>>[0]> = {}) => ({
  id,
  kind: 'tts' as const,
  connectionId: 'c1',
  phase: 'completed' as const,
  chargedCredits: null,
  chargeSource: null,
  ...more,
});

describe('the jobs waiting for a guide', () => {
  it('are written again by the first charge of their kind on their connection that gives one', () => {
    const again: string[] = [];
    const written = unpricedJobs((id) => again.push(id));
    written(job('a'));
    written(job('b'));
    written(job('swap', { kind: 'character-swap' }));
    written(job('elsewhere', { connectionId: 'c2' }));
    // An estimate, a refund and a job on its way give no guide.
    written(job('e', { chargedCredits: 1, chargeSource: 'estimate' }));
    written(job('f', { phase: 'failed', chargedCredits: 0, chargeSource: 'service' }));
    written(job('q', { phase: 'queued' }));
    expect(again).toEqual([]);
    // 'b' priced meanwhile (its own write) waits no more.
    written(job('b', { chargedCredits: 1, chargeSource: 'estimate' }));
    written(job('m', { chargedCredits: 1, chargeSource: 'balance' }));
    expect(again).toEqual(['a']);
  });

  it(`keep at most ${MOST_WAITING}, letting the oldest go`, () => {
    const again: string[] = [];
    const written = unpricedJobs((id) => again.push(id));
    for (let n = 0; n <= MOST_WAITING; n += 1) written(job(`j${n}`));
    written(job('measured', { chargedCredits: 1, chargeSource: 'balance' }));
    expect(again).toHaveLength(MOST_WAITING);
    expect(again[0]).toBe('j1');
    expect(again.at(-1)).toBe(`j${MOST_WAITING}`);
  });
});
