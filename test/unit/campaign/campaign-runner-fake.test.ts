import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { campaignBalanceNote } from '../../../electron/services/campaign/campaign-manifest';
import { OUTCOME_UNKNOWN, type CreateIntents } from '../../../electron/services/rows/queue/create-intents';
import { rowEngineCases } from '../rows/row-engine-cases';
import { runsIn } from '../rows/folder-runs';
import { setup } from './hand-campaign';

describe.each(rowEngineCases())('campaign rows on the row engine, step by step ($name)', ({ deps }) => {
  it('starts rows while no create is on its way (no fixed count), each row voiceovers first, then its video', async () => {
    const { engine, runner, record, settle } = setup(deps(), 5, 2);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    // The record's concurrency (2) no longer caps anything: creates leave at once here, so every row starts.
    expect(new Set(engine.created().map((j) => (j.purpose.type === 'campaign-row' ? j.purpose.row : -1)))).toEqual(
      new Set([0, 1, 2, 3, 4]),
    );
    expect(engine.created().map((j) => j.kind)).toEqual(Array(5).fill('tts'));
    engine.endAll();
    await settle();
    expect(
      engine
        .created()
        .filter((j) => j.phase === 'queued')
        .map((j) => j.kind),
    ).toEqual(Array(5).fill('tts'));
    for (let i = 0; i < 12; i += 1) {
      engine.endAll();
      await settle();
    }
    const done = await run;
    expect(done.rows.map((r) => r.state)).toEqual(Array(5).fill('done'));
    expect(engine.created()).toHaveLength(15);
  });

  it("reads the balance when it starts and ends, and shows its fall beside its jobs' figures", async () => {
    // Each job the service accepted took 2 credits when it was made.
    const { engine, runner, record, settle } = setup(deps(), 2, 2, (hand) => 1_000 - 2 * hand.created().length);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    expect((await runner.get('hand'))?.balance).toMatchObject({ start: 1_000, latest: 1_000, endedAt: null });
    for (let i = 0; i < 6; i += 1) {
      engine.endAll();
      await settle();
    }
    const done = await run;
    expect(done.state).toBe('finished');
    expect(done.balance).toMatchObject({ start: 1_000, latest: 988, endedAt: 0 });
    expect(campaignBalanceNote(done, engine.jobs)).toBe(
      "The balance fell by 12 credits; its jobs' prices add up to 12.",
    );
  });

  it('sends the step the service refused as too frequent again, once', async () => {
    const { engine, runner, record, settle } = setup(deps(), 3, 3);
    engine.refuse = 2;
    await runner.create(record);
    const run = runner.run('hand');
    for (let i = 0; i < 15; i += 1) {
      await settle();
      engine.endAll();
    }
    const done = await run;
    expect(done.rows.map((r) => r.state)).toEqual(['done', 'done', 'done']);
    expect(engine.jobs.filter((j) => j.remoteId === null)).toHaveLength(2);
    const steps = engine
      .created()
      .map((j) =>
        j.purpose.type === 'campaign-row' ? `${j.purpose.row}:${j.purpose.step}:${j.purpose.sceneId ?? ''}` : '',
      );
    expect(new Set(steps).size).toBe(steps.length);
    expect(steps).toHaveLength(9);
  });

  it('pauses (no paid request after it: rows under way keep their steps), resumes, and cancels before the next paid step', async () => {
    const { engine, runner, record, settle } = setup(deps(), 4, 1);
    await runner.create(record);
    await runner.pause('hand');
    const paused = await runner.run('hand');
    expect(paused.rows.map((r) => r.state)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(engine.created()).toHaveLength(0);
    await runner.resume('hand');
    const resumed = runner.run('hand');
    await settle();
    expect(engine.created()).toHaveLength(4);
    // Paused with every row under way: what is at the service ends, and no next paid step leaves.
    await runner.pause('hand');
    expect((await resumed).state).toBe('paused');
    for (let i = 0; i < 4; i += 1) {
      engine.endAll();
      await settle();
    }
    expect(engine.created()).toHaveLength(4);
    expect((await runner.get('hand'))!.rows.map((r) => r.state)).toEqual(Array(4).fill('voiceover'));
    // Resumed: each row goes on from its step, its voiceover not sent again.
    await runner.resume('hand');
    const finished = runner.run('hand');
    for (let i = 0; i < 4; i += 1) {
      await settle();
      engine.endAll();
    }
    expect((await finished).rows.map((r) => r.state)).toEqual(Array(4).fill('done'));
    expect(engine.created()).toHaveLength(12);
  });

  it('cancelled, a row under way stops before its next paid step and rows not started never start', async () => {
    const { engine, runner, record, settle } = setup(deps(), 4, 1);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    expect(engine.created()).toHaveLength(4);
    await runner.cancel('hand');
    for (let i = 0; i < 4; i += 1) {
      engine.endAll();
      await settle();
    }
    const cancelled = await run;
    // Each row's first voiceover was sent: it stops before its second.
    expect(cancelled.rows.map((r) => r.state)).toEqual(Array(4).fill('cancelled'));
    expect(engine.created()).toHaveLength(4);
  });

  it('with 5% of its jobs failing, fails those rows by name, makes every other row, and sends no step twice', async () => {
    const { engine, runner, record, settle } = setup(deps(), 40, 2);
    await runner.create(record);
    const run = runner.run('hand');
    const failing = [7, 23];
    for (let round = 0; round < 8; round += 1) {
      await settle();
      engine.endAll(round === 1 ? failing : []);
    }
    const done = await run;
    expect(done.rows.filter((r) => r.state === 'failed').map((r) => r.row)).toEqual(failing);
    expect(done.rows.filter((r) => r.state === 'done')).toHaveLength(38);
    const steps = engine
      .created()
      .map((j) => (j.purpose.type === 'campaign-row' ? `${j.purpose.row}:${j.purpose.step}:${j.purpose.sceneId}` : ''));
    expect(new Set(steps).size).toBe(steps.length);
  });

  it('fails a row whose create another worker set out to send as of unknown outcome, and never sends it', async () => {
    const shared = deps();
    const { intents } = shared;
    // Another worker wrote the intent of row 2's first create, then died before its job reached any ledger.
    const elsewhere: CreateIntents = {
      claim: async (key) =>
        key.row === 1 && key.take === 0 ? (await intents.claim(key)) && false : intents.claim(key),
      release: (key) => intents.release(key),
      made: (key, remoteId) => intents.made(key, remoteId),
      read: (key) => intents.read(key),
    };
    const { engine, runner, record, settle } = setup({ ...shared, intents: elsewhere }, 3, 3);
    await runner.create(record);
    const run = runner.run('hand');
    for (let i = 0; i < 6; i += 1) {
      await settle();
      engine.endAll();
    }
    const done = await run;
    expect(done.rows.map((r) => r.state)).toEqual(['done', 'failed', 'done']);
    expect(done.rows[1]?.problems).toEqual([OUTCOME_UNKNOWN]);
    expect(engine.jobs.filter((j) => j.purpose.type === 'campaign-row' && j.purpose.row === 1)).toEqual([]);
  });

  it('names a failed row with the reason, and a retry sends its next take once; a done row is kept', async () => {
    const { engine, runner, record, saved, dataDir, settle } = setup(deps(), 2, 2);
    await runner.create(record);
    const run = runner.run('hand');
    await settle();
    engine.endAll([1]);
    for (let i = 0; i < 4; i += 1) {
      await settle();
      engine.endAll();
    }
    const first = await run;
    expect(first.state).toBe('finished');
    expect(first.rows[1]).toMatchObject({
      state: 'failed',
      problems: ['Scene 1 (hello): the voiceover failed (the service could not make it)'],
    });
    expect(saved).toEqual([join(dataDir, 'out', '1 - P1.mp4')]);
    await runner.retryRow('hand', 1);
    const again = runner.run('hand');
    for (let i = 0; i < 4; i += 1) {
      await settle();
      engine.endAll();
    }
    const second = await again;
    expect(second.rows.map((r) => [r.state, r.take])).toEqual([
      ['done', 0],
      ['done', 1],
    ]);
    expect(engine.created().filter((j) => j.purpose.type === 'campaign-row' && j.purpose.row === 0)).toHaveLength(3);
    expect(
      engine.created().filter((j) => j.purpose.type === 'campaign-row' && j.purpose.row === 1 && j.purpose.take === 1),
    ).toHaveLength(3);
    await runner.flush();
    // Read back as a new host would: from the folder's records database, on a connection of its own.
    const onDisk = await campaignRuns(runsIn(dataDir, { readOnly: true })).get('hand');
    expect(onDisk?.rows.map((r) => r.state)).toEqual(['done', 'done']);
    expect(existsSync(join(dataDir, 'campaigns'))).toBe(false);
  });
});
