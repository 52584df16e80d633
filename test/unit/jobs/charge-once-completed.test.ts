// A voiceover's price is not published and the service's answer carries no charge: a worker charges it
// the balance's fall around a create that went alone, or the guide such falls give. A job answered
// before its worker had any guide (one it took over from a dead worker the moment it started, or its
// first sent beside another worker's create) was charged nothing, and the studio's ledger came out a
// credit under the balance's fall (issue 67's operator sequence, 1,188 for 1,189). Checked here: such a
// job takes its kind's guide once it completes, in the worker that follows it and in the studio that is
// told of it, stays honestly unknown while there is no guide at all, and is priced when one comes.
import { describe, expect, it } from 'vitest';
import type { JobSubmission, JobView } from '../../../electron/common/bridge/jobs';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import type { FetchLike } from '../../../electron/services/client';
import { FakeService, fakeConnections, manualTime, tts } from './fake-service';
import { until } from '../../wait';

const NOW = 1_700_000_000_000;
const VOICEOVER = '/api/open/v3/audio/create';

/** The service, charging 1 credit a voiceover from a balance the engines can read. */
function account() {
  const service = new FakeService(() => NOW);
  let balance = 100;
  const fetch: FetchLike = async (input, init) => {
    if (new URL(input).pathname === VOICEOVER) balance -= 1;
    return service.fetch(input, init);
  };
  return { service, fetch, balance: () => balance };
}

/** An engine whose polls run when the test fires them. */
function engineOn(fetch: FetchLike, balance: () => number) {
  const time = manualTime(NOW);
  const engine = new JobEngine({
    storage: new MemoryLedgerStorage(),
    connections: fakeConnections({ fetch }),
    ...time,
    random: () => 0.5,
    balance: async () => balance(),
  });
  engine.start();
  // The clock moved past every poll due, and they run.
  return { engine, fire: () => time.fire(60_000) };
}

const voiceover = (row: number): JobSubmission => ({
  kind: 'tts',
  body: { ...tts, input_text: `row ${row}` },
  purpose: { type: 'batch-row', batchId: 'b1', row },
  confirmation: { by: 'batch', batchId: 'b1' },
});

const job = (result: Awaited<ReturnType<JobEngine['submit']>>): JobView => {
  if (result.status !== 'submitted') throw new Error(`expected a job, got ${result.status}`);
  return result.job;
};

const charge = (j: Pick<JobView, 'chargedCredits' | 'chargeSource'> | undefined) => [
  j?.chargedCredits,
  j?.chargeSource,
];

describe('a job answered with no charge and no guide', () => {
  it('takes the guide of its kind once it completes, in the worker that follows it', async () => {
    const { service, fetch, balance } = account();
    // A voiceover the dead worker made (its intent holds the id, not the charge).
    const made = JSON.parse(
      await (await fetch(`http://fake.test${VOICEOVER}`, { method: 'POST', body: JSON.stringify({ ...tts }) })).text(),
    ) as { data: { _id: string } };
    const { engine, fire } = engineOn(fetch, balance);
    const taken = job(await engine.adopt(voiceover(1), made.data._id));
    // Nothing says yet what a voiceover costs here.
    expect(charge(taken)).toEqual([null, null]);
    // Its own first voiceover goes alone, measured: 1 credit.
    const own = job(await engine.submit(voiceover(2)));
    expect(charge(own)).toEqual([1, 'balance']);
    service.set(made.data._id, 3);
    await until('the taken voiceover polled to its end', () => (fire(), engine.get(taken.id).phase === 'completed'));
    expect(charge(engine.get(taken.id))).toEqual([1, 'estimate']);
    const total = engine.records().reduce((sum, r) => sum + (r.chargedCredits ?? 0), 0);
    expect(total).toBe(100 - balance());
    engine.stop();
  });

  it('takes the guide of its kind in the studio told of it, as soon as there is one', async () => {
    const { fetch, balance } = account();
    const worker = engineOn(fetch, balance).engine;
    const studio = engineOn(new FakeService(() => NOW).fetch, () => 0).engine;
    const completed = (j: JobView): JobView => ({ ...j, phase: 'completed', remoteStatus: 3 });
    const unknown = completed(job(await worker.adopt(voiceover(1), 'r-made-elsewhere')));
    expect(charge(unknown)).toEqual([null, null]);
    // Told of it before any voiceover's charge is on record: nothing to judge by, so nothing is made up.
    await studio.receive([unknown]);
    expect(charge(studio.records().find((r) => r.remoteId === unknown.remoteId))).toEqual([null, null]);

    const measured = completed(job(await worker.submit(voiceover(2))));
    const later = completed(job(await worker.adopt(voiceover(3), 'r-made-elsewhere-too')));
    expect(charge(later)).toEqual([1, 'estimate']);
    const unpriced = { ...later, remoteId: 'r-unpriced', chargedCredits: null, chargeSource: null };
    await studio.receive([measured, unpriced]);
    expect(charge(studio.records().find((r) => r.remoteId === 'r-unpriced'))).toEqual([1, 'estimate']);
    // The one told of before any guide is priced by the first charge that gives one.
    expect(charge(studio.records().find((r) => r.remoteId === unknown.remoteId))).toEqual([1, 'estimate']);
    worker.stop();
    studio.stop();
  });
});
