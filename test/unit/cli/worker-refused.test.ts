// Issue 64's done-when: a worker on another account, or with no credentials of its own, makes nothing and
// says why, while the run waits for a right worker. Real processes: Redis, two sandboxes each in its own
// process, `campaign run --queue` priced on the first, a worker of the second sandbox and a worker of
// its own folder's sandbox (a worker naming no service does not start). Both refuse the run in their logs, the run's
// status names each refusal, neither sandbox makes anything, and once a worker of the run's own account
// starts, the campaign ends with every row made by it.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { startSandbox, type Sandbox } from '../../bench/jobs.bench';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { until } from '../../wait';
import { smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, whenSaid, type CliProcess } from './queue-processes';

const ROWS = 3;
const place = queuePlace('studio-worker-refused-');
const dir = place.dir;
const started: CliProcess[] = [];
let other: Sandbox | null = null;
afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  if (other) await stopSandbox(other);
});

const sheet = (n: number) =>
  [
    'First name,company,voice,avatar,logo,email',
    ...Array.from({ length: n }, (_, i) => `Name${i + 1},Acme,Ava,SandboxBen,logo.png,n${i + 1}@example.com`),
  ].join('\n');

/** How many jobs a sandbox has made, by its own status route. */
async function jobsAt(sandbox: Sandbox): Promise<number> {
  const answer = await fetch(`${sandbox.url}/__sandbox/status`, { headers: { 'x-api-key': sandbox.apiKey } });
  return ((await answer.json()) as { data: { jobs: { total: number } } }).data.jobs.total;
}

const outOf = (name: string) => join(dir, `${name}-out`);
const made = (name: string) =>
  existsSync(outOf(name))
    ? readdirSync(outOf(name)).flatMap((run) => readdirSync(join(outOf(name), run)).filter((f) => f.endsWith('.mp4')))
    : [];

describe('a worker that does not serve the account a run is priced on', () => {
  it('makes none of its rows and says why, in its log and in the run’s status, until a right worker makes them', async () => {
    const { redis, sandbox } = await place.start({}, { credits: 1_000_000, jobSeconds: 0.5 });
    other = await startSandbox(join(dir, 'sandbox-b'), { credits: 1_000_000, jobSeconds: 0.5 });
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(join(dir, 'rows.csv'), sheet(ROWS));

    // Another sandbox, with its own key: another account.
    const elsewhere = cliProcess(
      [
        ...['worker', '--name', 'elsewhere', '--base-url', other.url],
        ...['--data-dir', join(dir, 'elsewhere-data'), '--out', outOf('elsewhere')],
      ],
      { STUDIO_API_KEY: other.apiKey, STUDIO_QUEUE_URL: redis.url },
    );
    // No service named: refused at once, never a sandbox of its own taken for the service.
    const unnamed = cliProcess(['worker', '--name', 'unnamed', '--data-dir', join(dir, 'unnamed-data')], {
      STUDIO_QUEUE_URL: redis.url,
    });
    started.push(unnamed);
    expect(await exitWithin(unnamed, 60_000, 'a worker with no service to refuse to start')).toBe(EXIT.usage);
    expect(unnamed.said()).toContain('name it with --base-url URL');
    expect(unnamed.said()).not.toContain('takes rows');
    // Its own data folder's sandbox, named, and no key: not the account the run is priced on.
    const bare = cliProcess(
      [
        'worker',
        '--name',
        'bare',
        '--connection',
        'Sandbox',
        '--data-dir',
        join(dir, 'bare-data'),
        '--out',
        outOf('bare'),
      ],
      { STUDIO_QUEUE_URL: redis.url },
    );
    started.push(elsewhere, bare);
    await Promise.all([whenSaid(elsewhere, 'takes rows from'), whenSaid(bare, 'takes rows from')]);

    const runData = join(dir, 'run-data');
    const run = cliProcess(
      [
        ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
        ...['--queue', redis.url, '--base-url', sandbox.url, '--data-dir', runData, '--yes', '--json'],
      ],
      { STUDIO_API_KEY: sandbox.apiKey },
    );
    started.push(run);

    // Each refuses the run, once, with why.
    await Promise.all([whenSaid(elsewhere, 'makes no row of campaign'), whenSaid(bare, 'makes no row of campaign')]);
    expect(elsewhere.said()).toMatch(
      new RegExp(
        `the run is priced on ${sandbox.url.replace(/\./g, '\\.')} and this worker serves http://127\\.0\\.0\\.1:\\d+ with other credentials`,
      ),
    );
    expect(bare.said()).toMatch(
      /makes no row of campaign \S+: the run is priced on http:\/\/127\.0\.0\.1:\d+ and this worker serves/,
    );
    expect(elsewhere.said()).not.toContain(sandbox.apiKey);

    // The run's status names both refusals while its rows wait.
    let status: { queue: { workers: { name: string; refuses?: { reason: string }[] }[] } } | null = null;
    await until('both refusals in the run’s status', async () => {
      const asked = cliProcess(['campaign', 'status', join(dir, 'out'), '--data-dir', runData, '--json'], {});
      await exitWithin(asked, 60_000, 'campaign status');
      status = JSON.parse(asked.printed()) as typeof status;
      return (status?.queue.workers ?? []).filter((w) => (w.refuses ?? []).length > 0).length === 2;
    });
    const reasons = status!.queue.workers.flatMap((w) => (w.refuses ?? []).map((r) => `${w.name}: ${r.reason}`));
    expect(reasons.join('\n')).toMatch(/^bare: Worker bare makes no row of campaign/m);
    expect(reasons.join('\n')).toMatch(/^elsewhere: Worker elsewhere makes no row of campaign/m);
    // Nothing was made by either, at either service.
    expect(await jobsAt(other)).toBe(0);
    expect(await jobsAt(sandbox)).toBe(0);
    expect(run.child.exitCode).toBeNull();

    // A worker of the run's own account: the campaign ends, every row made by it.
    await place.worker('right', redis.url, sandbox);
    expect(await exitWithin(run, 240_000, 'the campaign to end'), run.said()).toBe(EXIT.ok);
    expect(JSON.parse(run.printed())).toMatchObject({ counts: { done: ROWS } });
    expect(made('right')).toHaveLength(ROWS);
    expect([...made('elsewhere'), ...made('bare')]).toEqual([]);
    expect(await jobsAt(other)).toBe(0);
  }, 300_000);
});
