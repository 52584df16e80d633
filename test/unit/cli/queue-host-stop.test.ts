// Issue 67: a studio whose queue cannot be reached can still be stopped. Ctrl-C and SIGTERM end
// `campaign run --queue` (its Redis gone mid-run) and the web host opened on the folder of that queued
// campaign (its Redis not there at all, then there but refusing it: no password in this session) within
// seconds, and the campaign's record is left as it was: its rows still under way, none failed, nothing
// lost. Each is a real process; the guards on its exit are hang guards well past the 5 s each promises
// (the web host ignored both signals for over 2 minutes).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { smallTemplate } from '../campaign/campaign-harness';
import { until } from '../../wait';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, redisPassage, whenSaid, type CliProcess } from './queue-processes';
import { webHost, whenPrinted } from './web-host-process';
import { runsIn } from '../rows/folder-runs';

const place = queuePlace('studio-queue-host-stop-');
const dir = place.dir;
const PASSWORD = 'host-stop-secret-5';
/** A hang guard: each process promises 5 s; one that waits on the lost Redis takes minutes. */
const STOP_GUARD_MS = 30_000;

const started: CliProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

/** The campaign's rows by state, as its record on disk says (read once the process that held it is gone). */
async function rowStates(dataDir: string): Promise<string[]> {
  const [campaign] = await campaignRuns(runsIn(dataDir, { readOnly: true })).list();
  return (campaign?.rows ?? []).map((r) => r.state);
}

describe('a studio whose queue cannot be reached', () => {
  it('stops on Ctrl-C and SIGTERM within seconds, its queued campaign recorded as it was', async () => {
    // No worker: the rows queued stay on the queue for the whole test.
    const { redis, sandbox } = await place.start({ password: PASSWORD }, { credits: 1_000_000, jobSeconds: 600 });
    const passage = await redisPassage(redis.port);
    const shown = `redis://127.0.0.1:${passage.port}`;
    const dataDir = join(dir, 'data');
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(
      join(dir, 'rows.csv'),
      ['First name,company,voice,avatar,logo,email', 'Ana,Acme,Ava,SandboxBen,logo.png,ana@example.com'].join('\n') +
        '\nBen,Acme,Ava,SandboxBen,logo.png,ben@example.com',
    );

    // `campaign run --queue`, its Redis gone while it waits for its rows: Ctrl-C.
    const run = cliProcess(
      [
        ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
        ...['--queue', shown, '--base-url', sandbox.url, '--data-dir', dataDir, '--yes'],
      ],
      { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: `redis://:${PASSWORD}@127.0.0.1:${passage.port}` },
    );
    started.push(run);
    const queue = new Queue('studio-rows', { connection: { ...redisOptions(redis.url) }, prefix: 'studio' });
    try {
      await until(
        'a row on the queue',
        async () => {
          if (run.child.exitCode !== null) throw new Error(`it exited (${run.child.exitCode}): ${run.said()}`);
          return (await queue.getJobCounts('waiting')).waiting >= 1;
        },
        120_000,
      );
    } finally {
      await queue.close();
    }
    // What the record says once a row is queued: nothing moves without a worker.
    const queued = await rowStates(dataDir);
    expect(queued).toContain('voiceover');
    await passage.cut();
    await until('the command to try Redis again after it went', () => passage.refused() >= 2);
    run.child.kill('SIGINT');
    // 5 (paused): it stopped following and closed in order, rather than dying of the signal.
    const code = await exitWithin(run, STOP_GUARD_MS, '`campaign run --queue` to stop on Ctrl-C with its Redis gone');
    expect(code, run.said()).toBe(EXIT.paused);
    expect(run.said()).toContain('SIGINT: stopped following');
    expect(run.said()).not.toContain(PASSWORD);
    expect(await rowStates(dataDir), run.said()).toEqual(queued);

    // The web host on that folder, its Redis not there at all (nothing takes a connection there): SIGTERM.
    await passage.close();
    const away = webHost(dataDir, { STUDIO_API_KEY: sandbox.apiKey }, started);
    await whenPrinted(away, 'Avatar Studio is at');
    await whenSaid(away, 'cannot reach Redis');
    away.child.kill('SIGTERM');
    // 0: its own close ended it (records written), not the last resort past 4.5 s.
    expect(
      await exitWithin(away, STOP_GUARD_MS, 'the web host to stop on SIGTERM with its Redis not there'),
      away.said(),
    ).toBe(0);
    expect(await rowStates(dataDir), away.said()).toEqual(queued);

    // The web host again, Redis there but asking for the password this session was never given: Ctrl-C.
    const refusing = await redisPassage(redis.port, passage.port);
    const refused = webHost(dataDir, { STUDIO_API_KEY: sandbox.apiKey }, started);
    await whenPrinted(refused, 'Avatar Studio is at');
    await whenSaid(refused, 'NOAUTH');
    refused.child.kill('SIGINT');
    expect(
      await exitWithin(refused, STOP_GUARD_MS, 'the web host to stop on Ctrl-C with its Redis refusing it'),
      refused.said(),
    ).toBe(0);
    expect(refused.said()).not.toContain(PASSWORD);
    await refusing.close();
  }, 600_000);
});

function redisOptions(url: string) {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port), password: decodeURIComponent(parsed.password) };
}
