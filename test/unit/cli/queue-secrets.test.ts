// Issue 64: no secret on a command line. A `--queue` holding a password is refused by every command that
// takes one, naming the two places a password goes (STUDIO_QUEUE_URL, an owner-only password file); a
// password file others can read is refused. Then a worker and a queued run, real processes started as
// docs/scale-out.md shows, make a campaign while every process they start (and theirs) is looked at:
// no /proc/PID/cmdline holds the Redis password or the service key.
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { smallTemplate } from '../campaign/campaign-harness';
import { runIn, writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, whenSaid, type CliProcess } from './queue-processes';

const PASSWORD = 'cmdline-secret-9';
const place = queuePlace('studio-queue-secrets-');
const dir = place.dir;
const started: CliProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

/** Every process below `roots` now, by pid: its parent, from /proc/PID/stat (field 4, after the name). */
function descendants(roots: readonly number[]): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent)
      if (found.has(ppid) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
  }
  return [...found];
}

/** The command lines of the processes below `roots`, read until `until` settles (each new one once). */
async function commandLinesUntil(roots: () => number[], until: Promise<unknown>): Promise<Map<number, string>> {
  const lines = new Map<number, string>();
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    for (const pid of descendants(roots())) {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
        if (line) lines.set(pid, line);
      } catch {
        // Ended between the listing and the read.
      }
    }
    // Short-lived children (ffmpeg, ffprobe) are caught by looking often.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return lines;
}

const sheet = (people: readonly string[]) =>
  [
    'First name,company,voice,avatar,logo,email',
    ...people.map((p) => `${p},Acme,Ava,SandboxBen,logo.png,${p.toLowerCase()}@example.com`),
  ].join('\n');

describe('the queue password', () => {
  it('is refused on a command line, by every command that takes --queue', async () => {
    const commands = [
      ['worker', '--queue', `redis://:${PASSWORD}@127.0.0.1:6390`],
      [
        'campaign',
        'run',
        't.json',
        'rows.csv',
        '--out',
        'out',
        '--queue',
        `redis://ops:${PASSWORD}@127.0.0.1:6390`,
        '--yes',
      ],
      ['tts-batch', 'lines.csv', '--out-dir', 'voices', '--queue', `redis://:${PASSWORD}@127.0.0.1:6390`, '--yes'],
    ];
    writeFileSync(join(dir, 't.json'), JSON.stringify(smallTemplate().project));
    writeFileSync(join(dir, 'rows.csv'), sheet(['Ana']));
    writeFileSync(join(dir, 'lines.csv'), 'text,voice\nHello,Ava\n');
    for (const args of commands) {
      const run = await runIn(dir, [...args, '--data-dir', join(dir, 'refused-data')]);
      expect(run.code, `${args[0]}: ${run.said()}`).toBe(EXIT.usage);
      expect(run.said()).toContain('STUDIO_QUEUE_URL');
      expect(run.said()).toContain('--queue-password-file');
      expect(run.said()).not.toContain(PASSWORD);
    }
  });

  it('is read from a file only its owner can read, and refused from any other', async () => {
    const file = join(dir, 'queue-password');
    writeFileSync(file, `${PASSWORD}\n`);
    chmodSync(file, 0o644);
    // Port 1: nothing listens there, so a file accepted shows as the queue's own problem (exit 4).
    const args = ['worker', '--queue', 'redis://127.0.0.1:1', '--queue-password-file', file];
    const loose = await runIn(dir, [...args, '--data-dir', join(dir, 'file-data')]);
    expect(loose.code, loose.said()).toBe(EXIT.usage);
    expect(loose.said()).toContain('chmod 600');
    chmodSync(file, 0o600);
    const tight = await runIn(dir, [...args, '--data-dir', join(dir, 'file-data')]);
    expect(tight.code, tight.said()).toBe(EXIT.unavailable);
    expect(tight.said()).toContain('Nothing listens at redis://127.0.0.1:1');
  });

  it('and the service key are on no command line of a worker, a queued run, or anything they start', async () => {
    const { redis, sandbox } = await place.start({ password: PASSWORD }, { credits: 1_000_000, jobSeconds: 0.5 });
    const address = `redis://127.0.0.1:${redis.port}`;
    const passwordFile = join(dir, 'worker-queue-password');
    writeFileSync(passwordFile, PASSWORD, { mode: 0o600 });
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(join(dir, 'people.csv'), sheet(['Ana', 'Ben', 'Cleo']));
    const key = { STUDIO_API_KEY: sandbox.apiKey };

    // The worker as docs/scale-out.md starts it: the address alone, the password from its file.
    const worker = cliProcess(
      [
        ...['worker', '--queue', address, '--queue-password-file', passwordFile, '--name', 'w1'],
        ...['--base-url', sandbox.url, '--data-dir', join(dir, 'w1-data'), '--out', join(dir, 'w1-out')],
      ],
      key,
    );
    started.push(worker);
    await whenSaid(worker, 'takes rows from');
    // The run: the address on its command line, the password in STUDIO_QUEUE_URL.
    const run = cliProcess(
      [
        ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'people.csv'), '--out', join(dir, 'out')],
        ...['--queue', address, '--base-url', sandbox.url, '--data-dir', join(dir, 'run-data'), '--yes', '--json'],
      ],
      { ...key, STUDIO_QUEUE_URL: `redis://:${PASSWORD}@127.0.0.1:${redis.port}` },
    );
    started.push(run);
    const ended = exitWithin(run, 600_000, 'the queued campaign to end');
    const roots = () => [worker.child.pid, run.child.pid].filter((pid): pid is number => pid !== undefined);
    const lines = await commandLinesUntil(roots, ended);
    expect(await ended, run.said()).toBe(EXIT.ok);
    expect(JSON.parse(run.printed())).toMatchObject({ counts: { done: 3 } });

    worker.child.kill('SIGTERM');
    await exitWithin(worker, 60_000, 'the worker to stop');
    // The two commands and what they started: tsx's esbuild at least, and the media tools they ran.
    expect(lines.size, [...lines.values()].join('\n')).toBeGreaterThan(2);
    for (const [pid, line] of lines) {
      expect(line, `process ${pid}`).not.toContain(PASSWORD);
      expect(line, `process ${pid}`).not.toContain(sandbox.apiKey);
    }
  }, 900_000);
});
