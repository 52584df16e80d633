// A queued run's reports, taken in by the studio that queued it: every job a worker made, and every one
// it may have made (a worker cut off between its intent and the answer), is recorded once, however many
// times its report is taken in.
import { describe, expect, it } from 'vitest';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import type { JobSubmission, JobView } from '../../../electron/common/bridge/jobs';
import { reportedJob } from '../../../electron/services/rows/queue/run-shelf';
import { FakeService, fakeConnections, tts } from './fake-service';

const engine = (service: FakeService) =>
  new JobEngine({
    storage: new MemoryLedgerStorage(),
    connections: fakeConnections(service),
    clock: { now: () => 1_700_000_000_000 },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    random: () => 0.5,
  });

const step = (take: number, text = tts.input_text): JobSubmission => ({
  kind: 'tts',
  body: { ...tts, input_text: text },
  purpose: { type: 'campaign-row', campaignId: 'c-1', row: 4, step: 'voiceover', sceneId: 's1', take },
  confirmation: { by: 'script' },
  confirmDuplicate: true,
});

const view = (result: Awaited<ReturnType<JobEngine['submit']>>): JobView => {
  if (result.status !== 'submitted') throw new Error(`expected a job, got ${result.status}`);
  return result.job;
};

describe("the studio taking in a worker's report", () => {
  it('records each job once, those of unknown outcome too, however often the report comes', async () => {
    const service = new FakeService();
    const worker = engine(service);
    worker.start({ poll: false });
    const made = view(await worker.submit(step(0, 'Made at the service')));
    const unknown = view(await worker.adopt(step(0), null));
    // The same step cut off again in the row's next take: another job that may have been charged.
    const unknownAgain = view(await worker.adopt(step(1), null));
    const studio = engine(service);
    studio.start({ poll: false });

    await studio.receive([made, unknown, unknownAgain]);
    await studio.receive([made, unknown]);
    await studio.receive([unknownAgain]);

    const held = studio.list(undefined, { runId: 'c-1' });
    expect(
      held.map((j) => [j.phase, j.remoteId, j.chargedCredits, (j.purpose as { take: number }).take]).sort(),
    ).toEqual(
      [
        ['outcome-unknown', null, null, 0],
        ['outcome-unknown', null, null, 1],
        ['queued', made.remoteId, made.chargedCredits, 0],
      ].sort(),
    );
    expect(held.find((j) => j.phase === 'outcome-unknown')?.error?.explanation).toContain('Another worker');
  });

  it('is sent the jobs the service made or may have made, not the creates it refused', () => {
    const job = (phase: JobView['phase'], remoteId: string | null) => ({ phase, remoteId });
    expect(reportedJob(job('completed', 'r1'))).toBe(true);
    expect(reportedJob(job('outcome-unknown', null))).toBe(true);
    expect(reportedJob(job('failed', null))).toBe(false);
  });
});
