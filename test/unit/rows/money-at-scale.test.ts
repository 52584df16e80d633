// Money at scale, played as a marketer would on one sandbox connection, from the sandbox's own records:
// a 500-row campaign on a balance that covers about 40 rows makes whole videos and stops at the balance
// with hardly a row half paid; Pause while rows are under way sends no paid request after the click, and
// Resume goes on from there with every step made once. Nothing here looks at what a job makes, so the
// sandbox returns ready-made results (readyMadeResults) instead of speaking and rendering every row.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JobSubmission } from '@common/bridge/jobs';
import { readSandboxRecords } from '../../../electron/emulator/state/store';
import { isActivePhase as isActive } from '@common/jobs/phases';
import { createCampaign } from '../campaign/campaign-harness';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost } from './account-host';
import { sandboxTopUp } from '../../../electron/services/connections/sandbox-top-up';
import type { RunningEmulator } from '../../../electron/emulator';

const HANG_GUARD = { timeout: 240_000, interval: 50 };
const ROWS = 40;

/** A header and `count` prospects, each with a name of its own. */
function prospects(em: RunningEmulator, count: number): string[][] {
  const logo = `${em.url}/sandbox/sandbox-backdrop.png`;
  const rows = Array.from({ length: count }, (_, i) => [`P${i + 1}`, `Co ${i + 1}`, 'Ava', 'SandboxBen', logo]);
  return [['First name', 'company', 'voice', 'avatar', 'logo'], ...rows];
}

/** The sandbox's own record of the jobs it made: when, and for which row step (by the ledger's remote id). */
function sandboxCreates(dir: string): { id: string; createdAt: number; kind: string }[] {
  const state = readSandboxRecords(join(dir, 'sandbox')).state as {
    jobs: Record<string, { _id: string; createdAt: number; kind: string }>;
  };
  return Object.values(state.jobs).map((j) => ({ id: j._id, createdAt: j.createdAt, kind: j.kind }));
}

/** Per campaign row: its paid steps the sandbox made, and whether its video is among them. */
function paidPerRow(studio: ReturnType<typeof accountHost>, made: ReadonlySet<string>) {
  const rows = new Map<number, { steps: number; video: boolean }>();
  for (const job of studio.engine.records()) {
    const p = job.purpose;
    if (p.type !== 'campaign-row' || job.remoteId === null || !made.has(job.remoteId)) continue;
    const row = rows.get(p.row) ?? { steps: 0, video: false };
    rows.set(p.row, { steps: row.steps + 1, video: row.video || p.step === 'video' });
  }
  return rows;
}

describe('a campaign on a tight balance', () => {
  const { dir, sandbox } = sandboxPerFile('studio-money-tight-', { jobSeconds: 0.1, readyMade: true });

  it('makes whole videos and pauses at the balance with at most two rows paid in part', async () => {
    const em = sandbox();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    // Each row: two voiceovers (1 credit each) and a video (10): 12 credits; 480 covers 40 rows.
    em.setCredits(480);
    await createCampaign(
      { catalogue: studio.catalogue, runner: studio.campaigns } as never,
      prospects(em, 500),
      join(dir, 'out'),
      { id: 'c500' },
    );
    await studio.rows.run('campaign', 'c500');
    // Rows under way when it paused finish their steps at the service and are saved.
    await vi.waitFor(async () => {
      const rows = (await studio.campaigns.get('c500'))!.rows;
      expect(rows.filter((r) => r.state === 'video' || r.state === 'download')).toEqual([]);
    }, HANG_GUARD);

    const campaign = (await studio.campaigns.get('c500'))!;
    expect(campaign.state).toBe('paused');
    expect(campaign.pause?.reason).toBe('balance');
    expect(campaign.rows.filter((r) => r.state === 'failed')).toEqual([]);
    await studio.rows.idle();
    const made = new Set(sandboxCreates(dir).map((j) => j.id));
    const rows = [...paidPerRow(studio, made).values()];
    const whole = rows.filter((r) => r.video).length;
    const halfPaid = rows.filter((r) => !r.video).length;
    expect(whole).toBeGreaterThanOrEqual(35);
    expect(halfPaid).toBeLessThanOrEqual(2);
    expect(campaign.rows.filter((r) => r.state === 'done').length).toBe(whole);
    // Every job the sandbox made is one the studio asked for, each row step once.
    expect([...studio.created().values()].every((n) => n === 1)).toBe(true);
    expect(made.size).toBe(studio.created().size);

    // A top-up that covers 20 more rows, then Resume: 20 more whole videos, and the same pause again.
    await sandboxTopUp({ baseUrl: em.url, apiKey: em.apiKey }, 240);
    await studio.campaigns.resume('c500');
    await studio.rows.run('campaign', 'c500');
    await vi.waitFor(async () => {
      const rows = (await studio.campaigns.get('c500'))!.rows;
      expect(rows.filter((r) => r.state === 'video' || r.state === 'download')).toEqual([]);
    }, HANG_GUARD);
    const again = (await studio.campaigns.get('c500'))!;
    expect(again.pause?.reason).toBe('balance');
    const after = [...paidPerRow(studio, new Set(sandboxCreates(dir).map((j) => j.id))).values()];
    expect(after.filter((r) => r.video).length).toBeGreaterThanOrEqual(whole + 18);
    expect(after.filter((r) => !r.video).length).toBeLessThanOrEqual(2);
    expect([...studio.created().values()].every((n) => n === 1)).toBe(true);
    await studio.stop();
  }, 300_000);
});

describe('Pause while rows are under way', () => {
  const { dir, sandbox } = sandboxPerFile('studio-money-pause-', { jobSeconds: 0.5, readyMade: true });

  it('sends no paid request after the click, and Resume makes the rest with every step once', async () => {
    const em = sandbox();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    em.setCredits(100_000);
    // Every create the row engine hands to the job engine, and whether it was handed over after the click.
    let clicked = false;
    const afterClick: JobSubmission[] = [];
    const submitting = new Set<Promise<unknown>>();
    const submit = studio.engine.submit.bind(studio.engine);
    vi.spyOn(studio.engine, 'submit').mockImplementation((submission, signal) => {
      if (clicked) afterClick.push(submission);
      const going = submit(submission, signal);
      submitting.add(going);
      // Forgotten once settled; its outcome is the caller's (a create held back by the Pause rejects, and
      // a `finally` here would re-throw that as a rejection nobody handles).
      const forget = () => submitting.delete(going);
      going.then(forget, forget);
      return going;
    });
    await createCampaign(
      { catalogue: studio.catalogue, runner: studio.campaigns } as never,
      prospects(em, ROWS),
      join(dir, 'out'),
      { id: 'c' },
    );
    const running = studio.rows.run('campaign', 'c');
    // Rows under way with their voiceovers paid and their videos not sent: what Pause used to go on buying.
    await vi.waitFor(async () => {
      const rows = (await studio.campaigns.get('c'))!.rows;
      expect(rows.filter((r) => r.state === 'voiceover' || r.state === 'video').length).toBeGreaterThanOrEqual(8);
    }, HANG_GUARD);

    // The click: creates already handed to the job engine may still leave; nothing handed over after it.
    const inTheAir = submitting.size;
    clicked = true;
    const clickAt = Date.now();
    await studio.campaigns.pause('c');
    await running;
    await studio.rows.idle();
    // What was at the service finishes (its jobs followed to their end), and nothing more is sent.
    await vi.waitFor(() => {
      const active = studio.engine.records().filter((j) => isActive(j.phase));
      expect(active).toEqual([]);
    }, HANG_GUARD);
    expect(afterClick.map((s) => s.purpose)).toEqual([]);
    const late = sandboxCreates(dir).filter((j) => j.createdAt > clickAt);
    expect(late.length).toBeLessThanOrEqual(inTheAir);
    const paused = (await studio.campaigns.get('c'))!;
    expect(paused.state).toBe('paused');
    expect(paused.rows.filter((r) => r.state === 'failed')).toEqual([]);
    const underWay = paused.rows.filter((r) => r.state === 'voiceover' || r.state === 'video').length;
    expect(underWay).toBeGreaterThan(0);

    clicked = false;
    await studio.campaigns.resume('c');
    await vi.waitFor(async () => expect((await studio.campaigns.get('c'))?.state).toBe('finished'), HANG_GUARD);
    const done = (await studio.campaigns.get('c'))!;
    expect(done.rows.map((r) => r.state)).toEqual(Array(ROWS).fill('done'));
    expect([...studio.created().values()].every((n) => n === 1)).toBe(true);
    expect(studio.created().size).toBe(ROWS * 3);
    expect(sandboxCreates(dir).length).toBe(ROWS * 3);
    await studio.stop();
  }, 300_000);
});
