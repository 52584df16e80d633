// Issue 67, one budget: a row's creates go on the strength of its row's hold (which held the row's whole
// price within the day's limit before the row started), and a job made by hand keeps its own check.
import { describe, expect, it } from 'vitest';
import type { JobSubmission } from '../../../electron/common/bridge/jobs';
import { SpendingPolicy } from '../../../electron/common/jobs/cost-model';
import { SpendingGate } from '../../../electron/services/jobs/spending-gate';

const connection = { id: 'c1', name: 'Sandbox' };

/** A gate whose day's limit on c1 is 5 credits, each text to speech priced 4. */
const gate = () =>
  new SpendingGate({
    clock: { now: () => Date.now() },
    activeConnection: async () => connection,
    records: () => [],
    estimator: async () => ({ credits: 4, basis: 'test price' }),
    spending: () => SpendingPolicy.parse({ dailyLimits: { c1: 5 } }),
  });

const speech = (row: number): JobSubmission =>
  ({
    kind: 'tts',
    body: { text: `row ${row}` },
    purpose: { type: 'campaign-row', campaignId: 'c', row, take: 0 },
    confirmation: { by: 'batch', batchId: 'c' },
  }) as unknown as JobSubmission;

describe("the spending gate's check of one create", () => {
  it("refuses a create past the day's limit, unless its row's hold covers it", async () => {
    const one = gate();
    const first = await one.admit(speech(0), connection);
    // The second would pass the limit beside the first on its way: refused on its own check.
    await expect(one.admit(speech(1), connection)).rejects.toMatchObject({ code: 'spending-limit' });
    // A held row's create is not checked again; it is still counted on its way (a job by hand sees it).
    const held = await one.admit(speech(1), connection, true);
    expect(one.dayRoom('c1')).toBe(5 - 8);
    first.ticket.release();
    held.ticket.release();
    expect(one.dayRoom('c1')).toBe(5);
  });
});
