import { describe, expect, it } from 'vitest';
import { describeTotalCost, totalCost, type JobRecord } from '../../../electron/common/bridge/jobs';

type Costed = Pick<JobRecord, 'chargedCredits' | 'chargeSource' | 'costEstimate' | 'phase' | 'remoteId'>;
const job = (patch: Partial<Costed>): Costed => ({
  chargedCredits: null,
  chargeSource: null,
  costEstimate: null,
  phase: 'completed',
  remoteId: 'r',
  ...patch,
});

describe('the cost of a set of jobs', () => {
  it('says how much of what was charged is the studio’s estimate, as each job’s own figure does with ~', () => {
    const total = totalCost([
      job({ chargedCredits: 10, chargeSource: 'service' }),
      job({ chargedCredits: 3, chargeSource: 'estimate' }),
      job({ chargedCredits: 2, chargeSource: 'estimate' }),
      job({ phase: 'processing', costEstimate: { credits: 4, basis: '4 credits a job' } }),
      job({ phase: 'failed', remoteId: null }),
      job({ phase: 'processing' }),
    ]);
    expect(total).toEqual({ charged: 15, chargedByEstimate: 5, estimated: 4, unknown: 1 });
    expect(describeTotalCost(total)).toBe(
      '15 credits (~5 credits of them estimated) + about 4 credits more on their way + 1 job whose cost is not known yet',
    );
    expect(describeTotalCost(totalCost([job({ chargedCredits: 7, chargeSource: 'balance' })]))).toBe('7 credits');
  });
});
