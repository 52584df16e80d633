// `studio campaign run` while its campaign runs beside an open studio: with stderr not a terminal (a
// log file) it prints a plain progress line at each tick of its timer, and when the studio's user
// pauses the campaign it exits 5 (paused) at once, though its rows are still at the service.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { reachRunningSandbox } from '../../../electron/emulator/built-in';
import { campaignIdFor } from '../../../electron/services/campaign/campaign-setup';
import { smallTemplate } from '../campaign/campaign-harness';
import { until, whenDefined } from '../../wait';
import { startOwner, type OwnerFixture } from './owner-fixture';

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-follow-cli-'));
let owner: OwnerFixture;

beforeAll(async () => {
  // The sandbox's jobs take ten minutes: the rows stay under way for as long as a test needs them to.
  owner = await startOwner({ jobSeconds: 600 });
  const logo = `${(await reachRunningSandbox(owner.dataDir)).url}/sandbox/sandbox-backdrop.png`;
  writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
  writeFileSync(
    join(dir, 'prospects.csv'),
    [
      'First name,company,voice,avatar,logo',
      ...['Ana', 'Bo', 'Cy', 'Di'].map((n) => `${n},Acme,Ava,SandboxBen,${logo}`),
    ].join('\n'),
  );
});
afterAll(async () => {
  await owner?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `campaign run` into `out` beside the owner, stderr not a terminal, its progress timer ticked by the test. */
function startRun(out: string) {
  const err: string[] = [];
  const timer: { tick?: () => void; stopped: boolean } = { stopped: false };
  const io: CliIo = {
    out: () => {},
    err: (t) => err.push(t),
    env: {},
    cwd: dir,
    terminal: false,
    every: (_ms, tick) => {
      timer.tick = tick;
      return () => (timer.stopped = true);
    },
  };
  const args = [
    'campaign',
    'run',
    'greeting.json',
    'prospects.csv',
    '--out',
    out,
    '--yes',
    '--data-dir',
    owner.dataDir,
  ];
  const done = runCli(args, io);
  // A command that ends before the test is through with it says why, rather than leaving a wait to its guard.
  const ended = done.then((code) => {
    throw new Error(`campaign run ended early (exit ${code}):\n${err.join('\n')}`);
  });
  ended.catch(() => undefined);
  const whileRunning = <T>(waiting: Promise<T>) => Promise.race([waiting, ended]);
  return { err, timer, id: campaignIdFor(join(dir, out)), done, whileRunning };
}

describe('studio campaign run, followed', () => {
  it('prints a plain progress line at each tick when stderr is not a terminal', async () => {
    const run = startRun('out-progress');
    const tick = await run.whileRunning(whenDefined('the progress timer of the run', () => run.timer.tick));
    tick();
    const line = await run.whileRunning(
      whenDefined('a progress line', () => run.err.find((l) => l.startsWith('Progress:'))),
    );
    // How far the rows got by the tick depends on the machine; the line's shape does not.
    expect(line).toMatch(/^Progress: \d of 4 rows done, \d failed, \d under way; [\d,]+ credits? charged$/);
    await owner.call('campaigns.cancel', run.id);
    await run.done;
    expect(run.timer.stopped).toBe(true);
  });

  it('exits 5 at once when the studio pauses the campaign, its rows still at the service', async () => {
    const run = startRun('out-paused');
    await run.whileRunning(
      until('the campaign has a row under way', async () => {
        const view = await owner.call('campaigns.get', run.id).catch(() => null);
        return !!view && view.rows.some((r) => r.state === 'voiceover');
      }),
    );
    await owner.call('campaigns.pause', run.id);
    const code = await run.done;
    expect(run.err.join('\n')).toMatch(
      /Paused in the studio: 4 rows left; nothing failed for it\. Resume it there, or run studio campaign run \(same --out out-paused\) again to go on\./,
    );
    expect(code).toBe(EXIT.paused);
  });
});
