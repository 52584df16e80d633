// Issue 52's done-when: a campaign made on a queue by two `studio worker` processes against one sandbox
// in its own process, 5% of its jobs failing. One worker is SIGKILLed and Redis restarted mid-run; every
// good row is still saved (in a worker's folder and by the studio that queued it), none is lost, the
// sandbox's own records show no row step made twice, the manifest lists every row, and the starting
// studio's record of copies has every video. What is proved here is how rows are sent, taken over and
// saved, never what a video shows: the sandbox returns a ready-made sound and video (its inputs still
// fetched and checked) instead of speaking and rendering 600 times.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { readyMadeResults } from '../emulator/harness';
import { smallTemplate } from '../campaign/campaign-harness';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { until } from '../../wait';
import { readSandboxRecords } from '../../../electron/emulator/state/store';

const ROWS = 200;
const place = queuePlace('studio-campaign-queue-');
const dir = place.dir;

const names = (n: number) => Array.from({ length: n }, (_, i) => `Name${String(i + 1).padStart(3, '0')}`);
const sheet = (people: readonly string[]) =>
  [
    'First name,company,voice,avatar,logo,email',
    ...people.map((p) => `${p},Acme,Ava,SandboxBen,logo.png,${p.toLowerCase()}@example.com`),
  ].join('\n');

/** Files a worker saved, across its campaign folders. */
const workerFiles = (name: string): string[] => {
  const root = join(dir, `${name}-out`);
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((c) => readdirSync(join(root, c)).filter((f) => f.endsWith('.mp4')));
};

describe('a campaign made on a queue by two workers', () => {
  it('saves every good row once, through a killed worker and a restarted Redis', async () => {
    const { redis, sandbox } = await place.start(
      { password: 'queue-secret-7' },
      { credits: 10_000_000, failRate: 0.05, jobSeconds: 1, ...readyMadeResults(dir) },
    );
    const { project } = smallTemplate();
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(join(dir, 'rows.csv'), sheet(names(ROWS)));

    const first = await place.worker('w1', redis.url, sandbox);
    await place.worker('w2', redis.url, sandbox);

    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      // The queue's password in the environment, as a script keeps it out of the process list.
      env: { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: redis.url },
      cwd: dir,
    };
    const shown = redis.url.replace(':queue-secret-7@', '');
    const args = ['campaign', 'run', 'greeting.json', 'rows.csv', '--out', 'out', '--queue', shown];
    const common = ['--base-url', sandbox.url, '--data-dir', join(dir, 'data'), '--yes', '--json'];
    const run = runCli([...args, ...common], io);

    // A worker killed mid-run: its rows are taken over by the other one.
    await until('rows made before the kill', () => workerFiles('w1').length + workerFiles('w2').length >= 30, 600_000);
    first.kill('SIGKILL');
    // Redis stopped and started again on its folder (append-only file) while rows are under way.
    await until('rows made before Redis restarts', () => workerFiles('w2').length >= 60, 600_000);
    await redis.restart();

    const code = await run;
    const said = err.join('\n');
    expect([EXIT.ok, EXIT.failed], said).toContain(code);
    expect(said).not.toContain('queue-secret-7');
    const end = JSON.parse(out.join('\n')) as { counts: Record<string, number> };
    const failed = end.counts.failed ?? 0;
    expect(end.counts.done, said).toBe(ROWS - failed);
    // About 5% of jobs fail at the service, and a row makes three: its failures are the sandbox's, no more.
    expect(failed).toBeLessThan(ROWS * 0.3);

    // The manifest lists every row; each done row's video is in the studio's folder.
    const manifest = Papa.parse<Record<string, string>>(readFileSync(join(dir, 'out', 'manifest.csv'), 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(manifest).toHaveLength(ROWS);
    const saved = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.mp4'));
    expect(saved).toHaveLength(ROWS - failed);

    // The starting studio's Library: each done row's video is a job of its ledger with its copy saved.
    const missing = await runCli(['download', '--missing', '--json', ...common.filter((f) => f !== '--yes')], io);
    expect(missing, err.join('\n')).toBe(EXIT.ok);
    expect(JSON.parse(out[out.length - 1])).toEqual([]);
    const videos = openLedger(join(dir, 'data'))
      .loadAll()
      .filter((j) => j.kind === 'avatar-video' && j.phase === 'completed');
    expect(videos).toHaveLength(ROWS - failed);

    // `campaign status` says where the rows were made and which workers it sees (the killed one's beat expired or stale).
    const status = await runCli(['campaign', 'status', 'out', ...common.filter((f) => f !== '--yes')], io);
    expect([EXIT.ok, EXIT.failed]).toContain(status);
    const seen = JSON.parse(out[out.length - 1]) as { queue: { queue: string; workers: { name: string }[] } };
    expect(seen.queue.queue).toBe(shown);
    expect(seen.queue.workers.map((w) => w.name)).toContain('w2');

    // No row step made twice, by the sandbox's own records.
    await stopSandbox(sandbox);
    const state = readSandboxRecords(sandbox.dataDir).state as {
      jobs: Record<string, { kind: string; request: Record<string, unknown> }>;
    };
    const speech = Object.values(state.jobs).filter((j) => j.kind === 'tts');
    const texts = speech.map((j) => String(j.request.input_text));
    expect(texts.length - new Set(texts).size).toBe(0);
    // A video speaks its row's own voiceovers: the same voiceovers in two videos would be a row made twice.
    const voicesOfVideos = Object.values(state.jobs)
      .filter((j) => j.kind === 'avatar_video')
      .map((j) =>
        [...JSON.stringify(j.request).matchAll(/[\w-]+\.mp3/g)]
          .map((m) => m[0])
          .sort()
          .join(' '),
      );
    expect(voicesOfVideos.length).toBeGreaterThanOrEqual(ROWS - failed);
    expect(voicesOfVideos.length - new Set(voicesOfVideos).size).toBe(0);
  }, 900_000);
});
