// How `studio worker` starts on glibc: again, in a child given the allocator settings it runs with.
// Plain JavaScript, run before the CLI is loaded, so the process that stays as the child's parent holds
// no more than node itself (loaded, the CLI is about 190 MB).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * glibc's allocator as a worker runs with it. Its own default raises the size above which it maps a block
 * of its own each time such a block is freed (up to 32 MB), so everything smaller then comes from its
 * heap, which it cannot give back while one block at its top stays in use: a worker's malloc heap grew
 * about 3 kB a row while what it had in use stayed between 14 and 20 MB (heaptrack). A fixed threshold
 * keeps it flat; two arenas instead of one per thread take 50 to 90 MB off each worker. glibc reads these
 * only as a process starts, hence a child.
 */
export const WORKER_MALLOC = 'glibc.malloc.mmap_threshold=65536:glibc.malloc.arena_max=2';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The C library this node runs on, when it is glibc (its version); null on musl, macOS or Windows. */
export function glibcVersion() {
  return process.report?.getReport()?.header?.glibcVersionRuntime ?? null;
}

/**
 * Whether this command line should run again in a child given WORKER_MALLOC: `studio worker` on glibc,
 * started by no one who already chose the allocator's settings (GLIBC_TUNABLES is theirs, or ours in the
 * child itself). `glibc`: the C library's version, or how to read it (a report of this process, so only
 * for a worker).
 */
export function needsWorkerMalloc(argv, env = process.env, glibc = glibcVersion) {
  if (argv[0] !== 'worker' || env.GLIBC_TUNABLES !== undefined) return false;
  return (typeof glibc === 'function' ? glibc() : glibc) !== null;
}

/**
 * Runs this process's own script again in a child given WORKER_MALLOC, and answers its exit code. The
 * child has its own process group, so a Ctrl-C reaches it once, through here (a second would end it at
 * once); SIGTERM and SIGHUP are passed on too. Killed outright, this process leaves the child no parent:
 * it ends itself the same way (`endWithParent`), as the operator who killed it meant.
 */
export function runWithWorkerMalloc(argv) {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...argv], {
    env: { ...process.env, GLIBC_TUNABLES: WORKER_MALLOC },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  const passing = FORWARDED.map((signal) => [signal, () => void child.kill(signal)]);
  for (const [signal, handler] of passing) process.on(signal, handler);
  return new Promise((resolve) => {
    const done = (code) => {
      for (const [signal, handler] of passing) process.off(signal, handler);
      resolve(code);
    };
    child.once('error', () => done(1));
    child.once('exit', (code, signal) => done(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
}

/** In the child: a parent that is gone (killed outright) takes this worker with it, as abruptly. */
export function endWithParent() {
  if (!process.channel || process.env.GLIBC_TUNABLES !== WORKER_MALLOC) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
