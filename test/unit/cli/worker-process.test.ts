// `studio worker` runs with glibc's allocator settings (issue 67: its malloc heap crept about 3 kB a row
// under glibc's own moving threshold): on glibc the `studio` command starts it again in a child given
// them. These are real processes, started as `studio` is, and stopped and killed as an operator would: a
// stop reaches the child once, and a worker killed outright leaves nothing making rows behind it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKER_MALLOC, glibcVersion, needsWorkerMalloc } from '../../../electron/cli/worker-process.mjs';
import { until } from '../../wait';
import { queuePlace } from './queue-fixture';
import { exitWithin, whenSaid, type CliProcess } from './queue-processes';

const place = queuePlace('studio-worker-process-');
/** Hang guards: a worker stops within 5 s. */
const GUARD_MS = 30_000;
/** Every worker process and child this test started, ended with it whatever happened. */
const started: number[] = [];
afterAll(() => {
  for (const pid of started)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
});
const onGlibc = glibcVersion() !== null && process.env.GLIBC_TUNABLES === undefined;

const repoRoot = join(__dirname, '../../..');

/** `studio ARGS` as a user runs it (the package's bin), in its own process group when `group`. */
function studio(args: readonly string[], env: Record<string, string>, group = false): CliProcess {
  const child = spawn(process.execPath, [join(repoRoot, 'electron/cli/bin.mjs'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: group,
  });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, said: () => said, printed: () => '', exited };
}

/** The processes `pid` started that are still there. */
function childrenOf(pid: number): number[] {
  const listed = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(listed)) return [];
  return readFileSync(listed, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
/** A process's group (field 5 of /proc/PID/stat): what a terminal's Ctrl-C is sent to. */
const group = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2];
const alive = (pid: number) =>
  existsSync(`/proc/${pid}/stat`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** The worker's child, once it runs: the one process `worker` started that is node. */
async function workerChild(worker: CliProcess): Promise<number> {
  await whenSaid(worker, 'takes rows from');
  const pid = worker.child.pid as number;
  const node = childrenOf(pid).filter((c) => readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('worker'));
  started.push(pid, ...node);
  expect(node, 'one child making the rows').toHaveLength(1);
  return node[0];
}

describe('the allocator a worker runs with', () => {
  it('is asked for by `studio worker` on glibc alone, and never over settings someone chose', () => {
    expect(needsWorkerMalloc(['worker', '--queue', 'redis://q'], {}, '2.36')).toBe(true);
    expect(needsWorkerMalloc(['worker'], { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }, '2.36')).toBe(false);
    expect(needsWorkerMalloc(['worker'], {}, null)).toBe(false);
    expect(needsWorkerMalloc(['campaign', 'run'], {}, '2.36')).toBe(false);
  });

  it.skipIf(!onGlibc)(
    'makes rows in a child given it; stops reach that child, and a kill takes it too',
    async () => {
      const { redis, sandbox } = await place.start({}, { credits: 1_000_000 });
      const args = (name: string) => [
        ...['worker', '--queue', redis.url, '--name', name, '--base-url', sandbox.url],
        ...['--data-dir', join(place.dir, `${name}-data`)],
      ];
      const env = { STUDIO_API_KEY: sandbox.apiKey };

      // SIGTERM to the process the operator started: the child stops in order, and both are gone.
      const termed = studio(args('termed'), env);
      const child = await workerChild(termed);
      expect(environ(termed.child.pid as number).some((v) => v.startsWith('GLIBC_TUNABLES='))).toBe(false);
      // glibc reads its settings in place, so the child's environment shows the first of them.
      expect(environ(child).some((v) => v.startsWith(`GLIBC_TUNABLES=${WORKER_MALLOC.split(':')[0]}`))).toBe(true);
      // The child hands malloc's free pages back (worker-trim.ts): it has loaded koffi to call malloc_trim,
      // and its parent, which makes no rows, has not.
      const loaded = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes('/koffi/');
      expect(loaded(child)).toBe(true);
      expect(loaded(termed.child.pid as number)).toBe(false);
      termed.child.kill('SIGTERM');
      expect(await exitWithin(termed, GUARD_MS, 'the worker to stop on SIGTERM'), termed.said()).toBe(0);
      expect(termed.said()).toContain('SIGTERM: taking no more rows');
      expect(alive(child)).toBe(false);

      // Killed outright: its child ends too, rather than go on taking rows with no one to stop it.
      const killed = studio(args('killed'), env);
      const orphan = await workerChild(killed);
      killed.child.kill('SIGKILL');
      await until('the killed worker to take its child with it', () => !alive(orphan), GUARD_MS);

      // Ctrl-C in a terminal reaches the whole foreground group: the child hears it once, through its parent.
      const asTerminal = studio(args('terminal'), env, true);
      const terminal = asTerminal.child;
      const heard = await workerChild(asTerminal);
      // Its own group: the terminal's signal is not sent to it beside its parent's (a second one ends it at once).
      expect(group(heard)).not.toBe(group(terminal.pid as number));
      process.kill(-(terminal.pid as number), 'SIGINT');
      expect(await exitWithin(asTerminal, GUARD_MS, 'the worker to stop on Ctrl-C'), asTerminal.said()).toBe(0);
      expect(asTerminal.said().match(/SIGINT: taking no more rows/g)).toHaveLength(1);
      expect(asTerminal.said()).not.toContain('again: stopping now');
      expect(alive(heard)).toBe(false);
    },
    300_000,
  );
});
