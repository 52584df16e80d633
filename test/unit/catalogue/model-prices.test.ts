import { describe, expect, it } from 'vitest';
import type { AiModel } from '../../../electron/common/api/models';
import { modelPriceEstimator } from '../../../electron/services/catalogue/model-prices';
import { JobEngine, type JobEngineDeps } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import { FakeService, fakeConnections, tts } from '../jobs/fake-service';

const swapModel = (value: string, unit720: number): AiModel => ({
  type: 2101,
  label: value,
  value,
  resolutionList: [
    { label: '480P', value: '480p', width: 854, height: 480, unit_credit: 3 },
    { label: '720P', value: '720p', width: 1280, height: 720, unit_credit: unit720 },
  ],
});
const swap = { image: 'https://cdn.test/c.png', video: 'https://cdn.test/v.mp4', duration: 12, resolution: '720p' };

describe('prices from the AI model list', () => {
  it('prices a character swap per started 5 s at the unit_credit the list gives its model and resolution', async () => {
    const asked: number[][] = [];
    const estimate = modelPriceEstimator(async (types) => {
      asked.push(types);
      return [swapModel('fast', 7), swapModel('fine', 12)];
    });
    expect(await estimate('character-swap', swap)).toEqual({
      credits: 21,
      basis: '12 s at 720p: 3 started 5 s × 7 credits = 21 credits',
    });
    expect((await estimate('character-swap', { ...swap, model_name: 'fine' }))?.credits).toBe(36);
    expect((await estimate('character-swap', { ...swap, resolution: '480p', duration: 5 }))?.credits).toBe(3);
    expect(asked).toEqual([[2101], [2101], [2101]]);
    // What the list does not price is left to the job kind's own estimate.
    expect(await estimate('character-swap', { ...swap, resolution: '1080p' })).toBeNull();
    expect(await estimate('character-swap', { ...swap, model_name: 'gone' })).toBeNull();
    expect(await estimate('tts', tts)).toBeNull();
  });

  it("is what the ledger records as the cost; a list that cannot be read leaves the kind's estimate", async () => {
    const service = new FakeService();
    const storage = new MemoryLedgerStorage();
    const engine = (estimator: NonNullable<JobEngineDeps['estimator']>) =>
      new JobEngine({ storage, connections: fakeConnections(service), clock: { now: () => Date.now() }, estimator });
    const priced = await engine(async () => ({ credits: 4, basis: 'from the list' })).submit({
      confirmation: { by: 'script' },
      kind: 'tts',
      body: tts,
    });
    if (priced.status !== 'submitted') throw new Error('not sent');
    expect(storage.records.get(priced.job.id)?.costEstimate).toEqual({ credits: 4, basis: 'from the list' });
    const unread = await engine(async () => {
      throw new Error('model list down');
    }).submit({ confirmation: { by: 'script' }, kind: 'tts', body: { ...tts, input_text: 'Another one' } });
    if (unread.status !== 'submitted') throw new Error('not sent');
    expect(unread.job.phase).not.toBe('failed');
    expect(storage.records.get(unread.job.id)?.costEstimate).toBeNull();
  });
});
