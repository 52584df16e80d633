// The account's end is a pause, not a failure: a batch and a campaign on one sandbox connection whose
// balance covers about 40 of the batch's 200 rows. The price question says so; the first create refused
// for want of credits pauses both runs with that reason and fails no row; after a top-up and Resume
// every row is made, and the sandbox's own records show no row step was created twice. Nothing here looks
// at what a job makes, so the sandbox returns ready-made results instead of speaking 200 lines.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { coversText, quoteCovers } from '@common/jobs/run-pause';
import { createCampaign, prospects } from '../campaign/campaign-harness';
import { sandboxTopUp } from '../../../electron/services/connections/sandbox-top-up';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost, lines, sandboxJobs } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-account-pause-', { jobSeconds: 0.1, readyMade: true });
const HANG_GUARD = { timeout: 120_000, interval: 50 };

describe("a batch and a campaign on one connection at the account's end", () => {
  it('pause together at the balance with no row failed, and finish every row once after a top-up', async () => {
    const em = sandbox();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    const madeBefore = await sandboxJobs(em);
    // One speech job first, so the connection has a charge to price speech by (it is not published).
    const first = await studio.engine.submit({
      kind: 'tts',
      body: { input_text: 'Hello.', voice_id: 'sandbox_ava', rate: '50%' },
      purpose: { type: 'plain' },
      confirmation: { by: 'script' },
    } as never);
    if (first.status !== 'submitted') throw new Error('not sent');
    await vi.waitFor(() => expect(studio.engine.get(first.job.id).phase).toBe('completed'), HANG_GUARD);

    em.setCredits(40);
    // The price question: 200 speech rows at this connection's charge, beside a balance of 40.
    const quote = await studio.engine.quote([{ action: 'tts', count: 200 }]);
    const covers = quoteCovers(quote, 200);
    expect(covers).toEqual({ rows: 40, of: 200 });
    expect(coversText(quote.balance, covers)).toMatch(/^Your balance of 40 credits covers about 40 of these 200 rows/);

    await studio.batches.create({ id: 'b', ...lines(200) });
    await createCampaign(
      { catalogue: studio.catalogue, runner: studio.campaigns } as never,
      prospects(em, 6),
      join(dir, 'out'),
      {
        id: 'c1',
      },
    );
    await Promise.all([studio.rows.run('batch', 'b'), studio.rows.run('campaign', 'c1')]);

    const batch = studio.batches.view((await studio.batches.get('b'))!);
    const campaign = (await studio.campaigns.get('c1'))!;
    for (const run of [batch, campaign]) {
      expect(run.state).toBe('paused');
      expect(run.pause?.reason).toBe('balance');
    }
    // Nothing failed for it: the batch's rows not made wait, the campaign's rows keep their steps.
    expect(batch.counts.failed ?? 0).toBe(0);
    expect(campaign.rows.filter((r) => r.state === 'failed')).toEqual([]);
    expect(batch.counts.completed ?? 0).toBeLessThanOrEqual(40);
    expect(batch.counts.waiting ?? 0).toBeGreaterThanOrEqual(160);
    expect((await studio.batches.get('b'))!.pause?.rowsLeft).toBeGreaterThanOrEqual(160);

    // The top-up the studio's button sends to the sandbox's control route.
    await sandboxTopUp({ baseUrl: em.url, apiKey: em.apiKey }, 1_000);
    expect(em.credits()).toBeGreaterThanOrEqual(1_000);
    await studio.batches.resume('b');
    await studio.campaigns.resume('c1');
    // After the resume every row has its steps to make again at a busy machine's pace: the wait is a hang
    // guard (the suite at a load of 17 once took over two minutes), and says where each row was if it trips.
    await vi.waitFor(
      async () => {
        expect((await studio.batches.get('b'))?.state).toBe('finished');
        const resumed = await studio.campaigns.get('c1');
        expect(resumed?.state, JSON.stringify(resumed?.rows.map((r) => [r.state, r.problems]))).toBe('finished');
      },
      { ...HANG_GUARD, timeout: 300_000 },
    );

    const done = studio.batches.view((await studio.batches.get('b'))!);
    expect(done.counts.completed).toBe(200);
    expect(done.pause).toBeNull();
    expect((await studio.campaigns.get('c1'))!.rows.map((r) => r.state)).toEqual(Array(6).fill('done'));
    // Each row step made once by the ledger's account, and the sandbox made nothing else.
    const created = studio.created();
    expect([...created.values()].every((n) => n === 1)).toBe(true);
    // The batch's rows, and each campaign row's two voiced scenes and its video.
    expect(created.size).toBe(200 + 6 * 3);
    expect((await sandboxJobs(em)) - madeBefore).toBe(1 + created.size);
    await studio.stop();
  }, 480_000);
});
