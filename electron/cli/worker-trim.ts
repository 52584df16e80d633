import { createRequire } from 'node:module';
import { WORKER_MALLOC, glibcVersion } from './worker-process.mjs';

/**
 * How often a worker hands malloc's free pages back to the system: every 30 s. glibc's allocator gives
 * back only the top of a heap; pages freed below a block still in use stay in the process for good. A
 * worker's malloc holds 13 to 15 MB in use from its first minute to 3,000 rows (mallinfo2), yet its
 * `[heap]` and its second arena kept 20 and 21 MB resident, and in one 10,000-row run `[heap]` crept from
 * 19 to 42 MB (about 2.8 kB a row) with nothing more in use (heaptrack). malloc_trim(0) returns every free
 * page of every arena (madvise): [heap] 20.4 to 12.9 MB and the second arena 21 to 1 to 3 MB, in 0.5 to
 * 15 ms a call.
 */
export const WORKER_TRIM_MS = 30_000;

type Trim = (pad: number) => number;

/** glibc's malloc_trim through koffi (an optional dependency), or null: not glibc, or no koffi. */
export function loadTrim(): Trim | null {
  if (glibcVersion() === null) return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as {
      load(path: string): { func(signature: string): Trim };
    };
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
  } catch {
    return null;
  }
}

/**
 * In the worker's child (glibc, WORKER_MALLOC in force, given by worker-process.mjs): calls malloc_trim(0)
 * every WORKER_TRIM_MS, on a timer that keeps no process alive. Answers a stop, or null when there is
 * nothing to trim with (not glibc, no koffi, or an operator's own GLIBC_TUNABLES, whose allocator may be
 * another: jemalloc through LD_PRELOAD has no free pages for glibc to find).
 */
export function trimMallocEvery(env = process.env, load: () => Trim | null = loadTrim): (() => void) | null {
  if (env.GLIBC_TUNABLES !== WORKER_MALLOC) return null;
  const trim = load();
  if (!trim) return null;
  const timer = setInterval(() => void trim(0), WORKER_TRIM_MS);
  timer.unref();
  return () => clearInterval(timer);
}
