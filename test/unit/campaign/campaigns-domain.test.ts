import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsCalls } from '@common/bridge/campaigns';
import type { RunningEmulator } from '../../../electron/emulator';
import { createCampaignsDomain } from '../../../electron/services/campaign/campaigns-domain';
import { campaignHost, prospects, smallTemplate, startSandbox } from './campaign-harness';

let em: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'studio-campaigns-domain-'));
beforeAll(async () => {
  em = await startSandbox(dir);
}, 120_000);
afterAll(async () => {
  await em.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the campaigns bridge domain', () => {
  it('checks a chosen spreadsheet against a library project, prices it, starts it only on an answer to that price, and follows it to its end', async () => {
    const dataDir = mkdtempSync(join(dir, 'domain-'));
    const host = campaignHost(em, dataDir);
    const sheet = join(dataDir, 'prospects.csv');
    writeFileSync(sheet, prospects(em, 3, [1]).map((line) => line.join(',')).join('\n'));
    const granted = new Map([['file:///granted/prospects.csv', sheet]]);
    const domain = createCampaignsDomain({ jobs: host.engine, catalogue: host.catalogue }, {
      runner: host.runner,
      openProject: async () => smallTemplate().project,
      pathOf: (ref) => granted.get(ref) ?? null,
      checkLinks: async (urls) => urls.map((url) => ({ url, ok: true, kind: 'image' as const, format: 'png' as const, durationMs: null, sizeBytes: 1, checkedAt: 0 })),
    });
    const input = { projectId: 'p1', file: 'file:///granted/prospects.csv', label: 'prospects.csv', fileName: '{{row}} - {{First name}}', outDir: join(dataDir, 'out'), concurrency: 4 };
    const h = domain.handlers;

    await expect(h['campaigns.check']({ ...input, file: 'file:///not/chosen.csv' })).rejects.toMatchObject({ code: 'not-allowed' });
    const check = await h['campaigns.check'](input);
    expect(check.rows.map((r) => [r.row, r.fileName, r.problems])).toEqual([[0, '1 - Ana.mp4', []], [1, '2.mp4', ['{{First name}} is empty']], [2, '3 - Cy.mp4', []]]);

    const quote = await h['campaigns.quote'](input);
    expect(quote.items.map((i) => [i.action, i.count])).toEqual([['tts', 4], ['avatar-video', 2]]);
    // The sandbox publishes no price for these: an answer naming a figure is not an answer to this price.
    await expect(h['campaigns.create'](input, { by: 'user', credits: 5 })).rejects.toMatchObject({ code: 'confirmation-required' });
    expect(await h['campaigns.list']()).toEqual([]);
    // The bridge refuses a create that carries no answer at all, before any handler runs.
    expect(campaignsCalls['campaigns.create'].args.safeParse([input]).success).toBe(false);

    const started = await h['campaigns.create'](input, { by: 'user', credits: null });
    expect(started.counts).toEqual({ pending: 2, invalid: 1 });
    const done = await host.runner.run(started.id);
    expect(done.rows.map((r) => r.state)).toEqual(['done', 'invalid', 'done']);
    expect((await h['campaigns.list']()).map((c) => [c.id, c.state, c.counts])).toEqual([[started.id, 'finished', { done: 2, invalid: 1 }]]);
    expect((await h['campaigns.get'](started.id)).rows[0].fileName).toBe('1 - Ana.mp4');
    await expect(h['campaigns.retryRow'](started.id, 0, { by: 'user', credits: 3 })).rejects.toMatchObject({ code: 'confirmation-required' });
    await expect(h['campaigns.get']('nope')).rejects.toMatchObject({ code: 'not-found' });
    await host.stop();
  }, 120_000);
});
