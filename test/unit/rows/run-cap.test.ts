// "Stop after N credits": one check before each create, counting the creates on their way at their
// price, pauses the run with reason "cap" before a create would pass it; nothing fails for it, and the
// run goes on from there when the cap is raised (or removed) and it is resumed.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost, lines } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-run-cap-', { jobSeconds: 0.1 });

describe("a run's cap", () => {
  it('pauses the batch exactly at its cap, with no row failed, and goes on when raised and removed', async () => {
    const em = sandbox();
    // A fresh ledger: speech has no published price and no charge yet on this connection to judge by.
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    const start = em.credits();
    await studio.batches.create({ id: 'b', ...lines(30, 5) });

    const capped = studio.batches.view((await studio.rows.run('batch', 'b').then(() => studio.batches.get('b')))!);
    expect(capped.state).toBe('paused');
    expect(capped.pause?.reason).toBe('cap');
    expect(capped.pause?.rowsLeft).toBeGreaterThanOrEqual(25);
    // Five speech rows at 1 credit each (the creates on their way answered first): the sandbox made those and nothing more.
    await studio.rows.idle();
    expect(start - em.credits()).toBe(5);
    expect(studio.created().size).toBe(5);
    expect(capped.counts.failed ?? 0).toBe(0);
    expect(capped.counts.waiting).toBe(25);

    await studio.batches.setCap('b', 12);
    await studio.batches.resume('b');
    const raised = studio.batches.view((await studio.rows.run('batch', 'b').then(() => studio.batches.get('b')))!);
    expect(raised.pause?.reason).toBe('cap');
    await studio.rows.idle();
    expect(start - em.credits()).toBe(12);

    await studio.batches.setCap('b', null);
    await studio.batches.resume('b');
    const done = studio.batches.view((await studio.rows.run('batch', 'b').then(() => studio.batches.get('b')))!);
    expect(done.state).toBe('finished');
    expect(done.counts.completed).toBe(30);
    expect(start - em.credits()).toBe(30);
    expect([...studio.created().values()]).toEqual(Array(30).fill(1));
    await studio.stop();
  }, 120_000);
});
