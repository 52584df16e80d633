// Issue 67: rows that workers finished while the studio that queued them was away are taken in when the
// same `campaign run --queue` command runs again: their reports waited in Redis. The operator's studio
// counted them as missing ("128 of 300 videos"), and `--retry-failed` paid for them again. Real
// processes: the command is interrupted (Ctrl-C) with rows still on the queue, and a worker makes every
// row meanwhile. Some of those rows are then failed in the studio's record, as a studio before this fix
// left them (it failed every unfinished row with NOAUTH). The command run again takes in every row still
// under way; run with --retry-failed it takes in the failed ones from their reports instead of making them
// again. By the sandbox's own records nothing was made twice, and the studio's ledger holds every job the
// sandbox made for the run.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { readSandboxRecords } from '../../../electron/emulator/state/store';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { readyMadeResults } from '../emulator/harness';
import { smallTemplate } from '../campaign/campaign-harness';
import { until } from '../../wait';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, type CliProcess } from './queue-processes';
import { runsIn } from '../rows/folder-runs';

const ROWS = 12;
const PASSWORD = 'again-secret-4';
const place = queuePlace('studio-queue-again-');
const dir = place.dir;

const names = Array.from({ length: ROWS }, (_, i) => `Name${String(i + 1).padStart(2, '0')}`);

/** Videos the worker saved, across its campaign folders. */
const workerFiles = (): string[] => {
  const root = join(dir, 'w1-out');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((c) => readdirSync(join(root, c)).filter((f) => f.endsWith('.mp4')));
};

describe('a queued campaign whose studio was away while its rows were made', () => {
  it('takes in every report waiting in Redis when the same command runs again, paying for nothing twice', async () => {
    const { redis, sandbox } = await place.start(
      { password: PASSWORD },
      { credits: 10_000_000, jobSeconds: 1, ...readyMadeResults(dir) },
    );
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(
      join(dir, 'rows.csv'),
      [
        'First name,company,voice,avatar,logo,email',
        ...names.map((n) => `${n},Acme,Ava,SandboxBen,logo.png,${n.toLowerCase()}@example.com`),
      ].join('\n'),
    );
    // One worker, two rows at a time: the run takes long enough to be interrupted half way.
    await place.worker('w1', redis.url, sandbox, { args: ['--concurrency', '2'] });
    const shown = `redis://127.0.0.1:${redis.port}`;
    const args = [
      ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
      ...['--queue', shown, '--base-url', sandbox.url, '--data-dir', join(dir, 'data'), '--yes'],
    ];
    const env = { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: redis.url };
    const started: CliProcess[] = [];
    const campaignRun = (more: string[] = []) => {
      const p = cliProcess([...args, ...more], env);
      started.push(p);
      return p;
    };
    const queue = new Queue('studio-rows', {
      connection: { host: '127.0.0.1', port: redis.port, password: PASSWORD },
      prefix: 'studio',
    });
    try {
      const first = campaignRun();
      await until('two rows made by the worker', () => workerFiles().length >= 2, 300_000);
      first.child.kill('SIGINT');
      await exitWithin(first, 30_000, 'the command to stop on Ctrl-C');
      const savedBefore = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.mp4')).length;
      expect(savedBefore).toBeLessThan(ROWS);

      // Away: the worker makes the rest; their reports wait in Redis.
      await until(
        'every row made by the worker, none left on the queue',
        async () => {
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
          return workerFiles().length >= ROWS && Object.values(counts).every((n) => n === 0);
        },
        300_000,
      );

      // Half the rows still under way in the record are failed there, as a studio before this fix left them.
      const journal = campaignRuns(runsIn(join(dir, 'data')));
      const [left] = await journal.list();
      const underWay = left.rows.filter((r) => r.state === 'voiceover' || r.state === 'video');
      const failed = underWay.slice(0, Math.ceil(underWay.length / 2));
      expect(failed.length).toBeGreaterThan(0);
      let record = left;
      for (const row of failed) {
        const changed = { ...row, state: 'failed' as const, problems: ['NOAUTH Authentication required.'] };
        record = { ...record, rows: record.rows.map((r) => (r.row === row.row ? changed : r)) };
        await journal.putRow(record, changed);
      }
      await journal.flush();

      // The same command again: every row still under way is taken in from its report; the failed stay failed.
      const again = campaignRun();
      expect(await exitWithin(again, 300_000, 'the command run again to end'), again.said()).toBe(EXIT.failed);
      expect(again.printed()).toContain(`${ROWS - failed.length} of ${ROWS} videos`);
      // With --retry-failed: the failed rows are taken in from their reports too, not made again.
      const retry = campaignRun(['--retry-failed']);
      expect(await exitWithin(retry, 300_000, 'the retry to end'), retry.said()).toBe(EXIT.ok);
      expect(retry.printed()).toContain(`${ROWS} of ${ROWS} videos`);
    } finally {
      await queue.close();
      for (const p of started) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    }

    // Every row saved once, in the folder and the manifest.
    const manifest = Papa.parse<Record<string, string>>(readFileSync(join(dir, 'out', 'manifest.csv'), 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(manifest).toHaveLength(ROWS);
    expect(readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.mp4'))).toHaveLength(ROWS);

    // By the sandbox's own records: one video per row and each voiceover once, nothing made twice.
    await stopSandbox(sandbox);
    const state = readSandboxRecords(sandbox.dataDir).state as {
      jobs: Record<string, { id?: string; kind: string; request: Record<string, unknown> }>;
    };
    const made = Object.entries(state.jobs);
    const videos = made.filter(([, j]) => j.kind === 'avatar_video');
    const speech = made.filter(([, j]) => j.kind === 'tts').map(([, j]) => String(j.request.input_text));
    expect(videos).toHaveLength(ROWS);
    expect(speech.length - new Set(speech).size).toBe(0);

    // The studio's ledger holds every job the sandbox made for the run.
    const ledger = openLedger(join(dir, 'data')).loadAll();
    expect(ledger.filter((j) => j.kind === 'avatar-video' && j.phase === 'completed')).toHaveLength(ROWS);
    expect(ledger.filter((j) => j.kind === 'tts')).toHaveLength(speech.length);
  }, 900_000);
});
