// Issue 64: a worker that refuses a run says why on the run's card as well as in its log. The campaign is
// queued through the studio that owns the folder (this file's web host, its built-in sandbox the
// service), so the Campaigns page shows it; a `studio worker --connection Sandbox` serves its own data
// folder's sandbox, which is not the run's account. The card says which worker refuses and why,
// while the rows wait on the queue, and lists the worker as connected to it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedis, type RunningRedis } from '../redis-server';
import { smallTemplate } from '../unit/campaign/campaign-harness';
import { writeLogo } from '../unit/cli/cli-io';
import { cliProcess, whenSaid, type CliProcess } from '../unit/cli/queue-processes';
import { openStudio, screenshot, studioDataDir } from './browser';

const dir = mkdtempSync(join(tmpdir(), 'studio-e2e-queue-refusal-'));
const started: CliProcess[] = [];
let redis: RunningRedis | null = null;
afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await redis?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a queued campaign whose worker serves another account', () => {
  it('says on its card which worker refuses it and why, while its rows wait', async () => {
    redis = await startRedis({});
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(join(dir, 'rows.csv'), 'First name,company,voice,avatar,logo\nAna,Acme,Ava,SandboxBen,logo.png\n');

    const worker = cliProcess(
      [
        'worker',
        '--name',
        'stray-worker',
        '--connection',
        'Sandbox',
        '--data-dir',
        join(dir, 'worker-data'),
        '--out',
        join(dir, 'worker-out'),
      ],
      { STUDIO_QUEUE_URL: redis.url },
    );
    started.push(worker);
    await whenSaid(worker, 'takes rows from');
    // Through the web host that owns the folder: its page lists the campaign.
    const run = cliProcess(
      [
        ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
        ...['--queue', redis.url, '--data-dir', studioDataDir(), '--yes'],
      ],
      {},
    );
    started.push(run);
    await whenSaid(worker, 'makes no row of campaign');

    const studio = await openStudio({ hash: '#/campaigns' });
    try {
      const refused = studio.page.getByTestId('campaign-queue-refused');
      await refused.waitFor();
      const text = await refused.innerText();
      expect(text).toMatch(
        /^Worker stray-worker makes no row of campaign \S+: the run is priced on http:\/\/127\.0\.0\.1:\d+ and this worker serves http:\/\/127\.0\.0\.1:\d+ with other credentials\./,
      );
      expect(text).toContain('This campaign’s rows wait for a worker of its own account.');
      // The queue lists the worker as connected (its own list of clients), with what it has made: nothing.
      const row = studio.page.getByTestId('campaign-queue-workers').locator('tbody tr');
      await expect
        .poll(() => row.allInnerTexts())
        .toEqual([expect.stringMatching(/^stray-worker\t\S+\tfor \d+ s\t0\t0$/)]);
      await refused.scrollIntoViewIfNeeded();
      await screenshot(studio.page, 'campaign-queue-refused', { fullStage: true });
      expect(studio.consoleErrors).toEqual([]);
    } finally {
      await studio.close();
    }
    expect(run.child.exitCode).toBeNull();
  }, 240_000);
});
