// Issue 67: a queue that refuses the studio or cannot be reached pauses a queued run, saying why once; it
// fails no row. The operator's web studio, opened without the queue's password on the folder of a campaign
// still running, failed every unfinished row with "NOAUTH"; now it pauses the campaign with where the
// password is kept. `campaign run --queue` whose Redis goes mid-run waited in silence; now the run pauses
// once the queue has been out of reach a while, and the command says so and exits 5 (paused). Real
// processes; every wait is on an event, with hang guards only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { passwordKept } from '../../../electron/services/rows/queue/queue-password';
import { smallTemplate } from '../campaign/campaign-harness';
import { until } from '../../wait';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, redisPassage, type CliProcess } from './queue-processes';
import { webHost, whenPrinted } from './web-host-process';
import { runsIn } from '../rows/folder-runs';

const place = queuePlace('studio-queue-pause-');
const dir = place.dir;
const PASSWORD = 'pause-secret-9';
/** A hang guard on each exit, well past what each process promises (5 s). */
const STOP_GUARD_MS = 30_000;

const started: CliProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

/** The campaign's record on disk (read while no process holds it, or between its writes). */
async function record(dataDir: string) {
  const [campaign] = await campaignRuns(runsIn(dataDir, { readOnly: true })).list();
  if (!campaign) throw new Error('no campaign recorded');
  return campaign;
}

const count = (text: string, part: string) => text.split(part).length - 1;

/** Settles once the process said `text` on stderr; fails if it exits first, or after a hang guard. */
const saidWithin = (p: CliProcess, text: string, guardMs = 120_000) =>
  until(
    `the process to say "${text}"`,
    () => {
      if (p.child.exitCode !== null) throw new Error(`it exited (${p.child.exitCode}): ${p.said()}`);
      return p.said().includes(text);
    },
    guardMs,
  );

describe('a queued run whose queue refuses the studio or goes', () => {
  it('pauses with the reason said once, and fails no row', async () => {
    const { redis, sandbox } = await place.start({ password: PASSWORD }, { credits: 1_000_000, jobSeconds: 600 });
    const passage = await redisPassage(redis.port);
    const dataDir = join(dir, 'data');
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(
      join(dir, 'rows.csv'),
      [
        'First name,company,voice,avatar,logo,email',
        'Ana,Acme,Ava,SandboxBen,logo.png,ana@example.com',
        'Ben,Acme,Ava,SandboxBen,logo.png,ben@example.com',
      ].join('\n'),
    );
    const env = { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: `redis://:${PASSWORD}@127.0.0.1:${passage.port}` };
    const runArgs = [
      ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
      ...['--queue', `redis://127.0.0.1:${passage.port}`, '--base-url', sandbox.url, '--data-dir', dataDir, '--yes'],
    ];
    const campaignRun = () => {
      const p = cliProcess(runArgs, env);
      started.push(p);
      return p;
    };
    const queue = new Queue('studio-rows', {
      connection: { host: '127.0.0.1', port: redis.port, password: PASSWORD },
      prefix: 'studio',
    });
    try {
      // No worker: the rows handed to the queue wait there. The command is interrupted with its run going.
      const first = campaignRun();
      await until(
        'a row on the queue',
        async () => {
          if (first.child.exitCode !== null) throw new Error(`it exited (${first.child.exitCode}): ${first.said()}`);
          return (await queue.getJobCounts('waiting')).waiting >= 1;
        },
        120_000,
      );
      first.child.kill('SIGINT');
      await exitWithin(first, STOP_GUARD_MS, 'the first `campaign run` to stop');
      expect((await record(dataDir)).state).toBe('running');

      // The web studio on that folder, never given the password: it pauses the campaign saying so.
      const web = webHost(dataDir, { STUDIO_API_KEY: sandbox.apiKey }, started);
      await whenPrinted(web, 'Avatar Studio is at');
      await saidWithin(web, 'asks for a password this studio does not hold');
      web.child.kill('SIGTERM');
      expect(await exitWithin(web, STOP_GUARD_MS, 'the web host to stop'), web.said()).toBe(0);
      const locked = await record(dataDir);
      expect(
        locked.rows.filter((r) => r.state === 'failed'),
        web.said(),
      ).toEqual([]);
      expect(locked.state).toBe('paused');
      expect(locked.pause?.reason).toBe('queue');
      expect(locked.pause?.message).toContain(`asks for a password this studio does not hold: ${passwordKept(false)}`);
      // Said once: the run's pause (its log line), not once per row or per try.
      expect(count(web.said(), 'asks for a password this studio does not hold'), web.said()).toBe(1);
      expect(web.said()).not.toContain(PASSWORD);

      // The same command again, with the password: it goes on; then its Redis goes, and the run pauses.
      const again = campaignRun();
      await saidWithin(again, 'Going on with the campaign');
      await until('the run going on', async () => (await record(dataDir)).state === 'running');
      await passage.cut();
      const code = await exitWithin(again, 120_000, 'the command to pause on its queue out of reach');
      expect(code, again.said()).toBe(EXIT.paused);
      expect(count(again.said(), 'has not answered for')).toBe(1);
      expect(again.said()).toContain('To go on: run studio campaign run');
      const lost = await record(dataDir);
      expect(
        lost.rows.filter((r) => r.state === 'failed'),
        again.said(),
      ).toEqual([]);
      expect(lost.pause?.reason).toBe('queue');
      expect(again.said()).not.toContain(PASSWORD);
    } finally {
      await queue.close();
      await passage.close();
    }
  }, 600_000);
});
