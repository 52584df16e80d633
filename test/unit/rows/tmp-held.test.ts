import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createCampaign } from '../campaign/campaign-harness';
import { sandboxPerFile } from '../emulator/harness';
import { accountHost } from './account-host';

const { dir, sandbox } = sandboxPerFile('studio-tmpheld-', { jobSeconds: 0.1, readyMade: true });
describe('tmp', () => {
  it('reaches 120 under way with jobs held', async () => {
    const em = sandbox();
    const studio = accountHost(em, mkdtempSync(join(dir, 'studio-')));
    em.setCredits(100_000);
    const logo = `${em.url}/sandbox/sandbox-backdrop.png`;
    const rows = Array.from({ length: 200 }, (_, i) => [`P${i + 1}`, `Co ${i + 1}`, 'Ava', 'SandboxBen', logo]);
    await createCampaign({ catalogue: studio.catalogue, runner: studio.campaigns } as never,
      [['First name', 'company', 'voice', 'avatar', 'logo'], ...rows], join(dir, 'out'), { id: 'c' });
    await createCampaign({ catalogue: studio.catalogue, runner: studio.campaigns } as never,
      [['First name', 'company', 'voice', 'avatar', 'logo'], ...rows.slice(0, 40)], join(dir, 'out0'), { id: 'c0' });
    await studio.rows.run('campaign', 'c0');
    await vi.waitFor(async () => expect((await studio.campaigns.get('c0'))?.state).toBe('finished'), { timeout: 60_000 });
    await fetch(`${em.url}/__sandbox/faults`, { method: 'POST', headers: { 'x-api-key': em.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ holdJobs: true }) });
    const t0 = Date.now(); const marks: string[] = [];
    void studio.rows.run('campaign', 'c');
    let last = -1; let same = 0;
    try {
      await vi.waitFor(async () => {
        const r = (await studio.campaigns.get('c'))!.rows;
        const n = r.filter((x) => x.state !== 'pending').length;
        if (n === last) same++; else { same = 0; last = n; if (n % 20 === 0) marks.push(`${n}@${Date.now() - t0}`); }
        if (same > 50) throw Object.assign(new Error('stuck at ' + n), { stuck: true });
        expect(n).toBeGreaterThanOrEqual(100);
      }, { timeout: 100_000, interval: 200 });
    } finally {
      const eng = studio.rows as any;
      const pacer: any = eng.pacers?.of('sandbox') ?? { firsts: [] };
      console.log('PACER', JSON.stringify({ going: pacer.going, firsts: pacer.firsts.length, starting: pacer.starting, engineStarting: [...eng.starting] }));
      console.log('MARKS', marks.join(' '), 'total', Date.now() - t0);
      const r = (await studio.campaigns.get('c'))!.rows;
      const counts: Record<string, number> = {};
      for (const x of r) counts[x.state] = (counts[x.state] ?? 0) + 1;
      console.log('STATES', JSON.stringify(counts));
      await studio.stop();
    }
  }, 200_000);
});
