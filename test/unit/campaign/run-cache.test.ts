import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import type { JobEngine } from '../../../electron/services/jobs/engine';
import { campaignHost, createCampaign, prospects, startSandbox } from './campaign-harness';

let em: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-cache-'));
beforeAll(async () => {
  em = await startSandbox(dir);
}, 120_000);
afterAll(async () => {
  await em.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether the engine held the run's jobs as read at any change while it ran (what a stopped run must let go of). */
function watchHeld(engine: JobEngine, runId: string): { held: boolean; stop(): void } {
  const seen = { held: false, stop: () => undefined as void };
  seen.stop = engine.subscribe(() => {
    seen.held ||= engine.holdsRun(runId);
  });
  return seen;
}

describe("a campaign's jobs read for its rows", () => {
  it('are let go of once it finishes', async () => {
    const dataDir = mkdtempSync(join(dir, 'finish-'));
    const host = campaignHost(em, dataDir);
    await createCampaign(host, prospects(em, 3), join(dataDir, 'out'));
    const seen = watchHeld(host.engine, 'c1');
    const record = await host.runner.run('c1');
    seen.stop();
    expect(record.state).toBe('finished');
    // Its rows read them while it ran: what is checked below is their being let go of.
    expect(seen.held).toBe(true);
    expect(host.engine.holdsRun('c1')).toBe(false);
    await host.stop();
  }, 120_000);

  it('are let go of once it is paused and its rows under way have ended their steps', async () => {
    const dataDir = mkdtempSync(join(dir, 'pause-'));
    const host = campaignHost(em, dataDir);
    await createCampaign(host, prospects(em, 4), join(dataDir, 'out'), { concurrency: 2 });
    const seen = watchHeld(host.engine, 'c1');
    const running = host.runner.run('c1');
    // Paused once its rows have read their jobs: the rows under way go on with what is at the service.
    await new Promise<void>((resolve) => {
      const stop = host.engine.subscribe(() => {
        if (!host.engine.holdsRun('c1')) return;
        stop();
        resolve();
      });
    });
    await host.runner.pause('c1');
    expect((await running).state).toBe('paused');
    await host.runner.idle();
    seen.stop();
    expect(seen.held).toBe(true);
    expect(host.engine.holdsRun('c1')).toBe(false);
    await host.stop();
  }, 120_000);
});
