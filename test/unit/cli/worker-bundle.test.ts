// `studio worker` runs from the command line's bundle (out/cli/studio.cjs), not through tsx: the other
// queue tests start workers from the TypeScript, so this one makes a campaign's rows with a worker started
// as an operator starts it (the package's bin), from a bundle it had to make again first (older than the
// sources, as after an update). Real processes: Redis, the sandbox, the worker and `campaign run --queue`.
import { spawn } from 'node:child_process';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleIsStale, bundlePath, buildBundle } from '../../../electron/launch/bundles.mjs';
import { redisTarget } from '../../../electron/services/rows/queue/redis-target';
import { readyMadeResults } from '../emulator/harness';
import { smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, whenSaid, type CliProcess } from './queue-processes';

const ROWS = 4;
const place = queuePlace('studio-worker-bundle-');
const dir = place.dir;
const repoRoot = join(import.meta.dirname, '..', '..', '..');
/** Hang guards only. */
const GUARD_MS = 240_000;

/** `studio worker` as the package's bin starts it. */
function binWorker(args: readonly string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [join(repoRoot, 'electron/cli/bin.mjs'), 'worker', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, STUDIO_STARTUP_TRACE: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, said: () => said, printed: () => '', exited };
}

describe('studio worker, started as the package installs it', () => {
  it('makes its bundle again when it is older than the sources, and makes every row from it', async () => {
    const { redis, sandbox } = await place.start({}, { credits: 10_000_000, jobSeconds: 1, ...readyMadeResults(dir) });
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    const names = Array.from({ length: ROWS }, (_, i) => `Name${i + 1}`);
    writeFileSync(
      join(dir, 'rows.csv'),
      ['First name,company,voice,avatar,logo', ...names.map((n) => `${n},Acme,Ava,SandboxBen,logo.png`)].join('\n'),
    );

    // A bundle older than every source, as one left by the version before an update.
    if (bundleIsStale(repoRoot, 'cli')) await buildBundle(repoRoot, 'cli');
    utimesSync(bundlePath(repoRoot, 'cli'), new Date(0), new Date(0));
    expect(bundleIsStale(repoRoot, 'cli')).toBe(true);

    const worker = binWorker(
      [
        ...['--queue', redisTarget(redis.url).shown, '--name', 'w1', '--base-url', sandbox.url],
        ...['--data-dir', join(dir, 'w1-data'), '--out', join(dir, 'w1-out')],
      ],
      { STUDIO_API_KEY: sandbox.apiKey },
    );
    try {
      await whenSaid(worker, 'takes rows from');
      expect(worker.said()).toContain(`startup: ${bundlePath(repoRoot, 'cli')} loaded`);
      expect(worker.said()).not.toContain('running from the TypeScript sources');
      expect(bundleIsStale(repoRoot, 'cli')).toBe(false);

      const run = cliProcess(
        [
          ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', join(dir, 'out')],
          ...['--queue', redisTarget(redis.url).shown, '--base-url', sandbox.url, '--data-dir', join(dir, 'data')],
          '--yes',
        ],
        { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: redis.url },
      );
      expect(await exitWithin(run, GUARD_MS, 'the campaign to end'), run.said()).toBe(0);
      expect(run.printed()).toContain(`${ROWS} of ${ROWS} videos`);
      const made = readdirSync(join(dir, 'w1-out')).flatMap((c) => readdirSync(join(dir, 'w1-out', c)));
      expect(made.filter((f) => f.endsWith('.mp4'))).toHaveLength(ROWS);
    } finally {
      worker.child.kill('SIGTERM');
      await exitWithin(worker, 30_000, 'the worker to stop');
    }
  }, 300_000);
});
