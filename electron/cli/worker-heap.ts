import { setFlagsFromString } from 'node:v8';

/**
 * How far past what was live at its last full collection a worker's heap may grow before the next one:
 * 30%. Left to itself, V8 lets a process that allocates fast (a worker, which is never idle long enough
 * for its memory reducer) grow its old space to up to four times what is live. A worker holds about
 * 100 MB live whatever the rows it has made, and its RSS swung between 355 and 570 MB past 5,500 rows in
 * the scale bench: growth that was only where the collector stood, and barred a row count from saying
 * what a worker needs. Unlike a bound on the heap (--max-old-space-size), a growing factor ends no
 * worker whose rows need more: it only collects sooner.
 */
export const WORKER_HEAP_GROWING_PERCENT = 30;

/**
 * What keeps a worker's heap near what it holds, each left to its operator when given to node
 * (`node --heap-growing-percent=N …/studio worker`):
 * - the growing factor above;
 * - every full collection compacts the old space's partly used pages. V8 otherwise moves objects off
 *   such pages only when it judges them fragmented enough, or when the process is idle (its memory
 *   reducer), which a worker never is: the pages its rows' objects left half empty stayed resident, and
 *   a worker's RSS crept up 3.4 kB a row over its first 3,000 rows where it stayed level with this, at
 *   the same CPU a row (docs/scale-out.md).
 */
const WORKER_HEAP_FLAGS = [
  { name: '--heap-growing-percent', set: `--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}` },
  { name: '--compact-on-every-full-gc', set: '--compact-on-every-full-gc' },
] as const;

/** A flag's name as V8 reads it: `_` and `-` alike, without its value. */
const flagName = (arg: string): string => arg.split('=')[0].replaceAll('_', '-');

/**
 * Whether the operator gave node this flag, in any spelling V8 takes (`--flag=N`, `--flag N`,
 * `--no-flag`, `--noflag`, and each with `_` for `-`).
 */
function given(execArgv: readonly string[], name: string): boolean {
  const bare = name.replace(/^--/, '');
  const spellings = new Set([`--${bare}`, `--no-${bare}`, `--no${bare}`]);
  return execArgv.some((arg) => spellings.has(flagName(arg)));
}

/**
 * Sets the worker's heap flags in this process, except those its operator gave node. V8 reads both at
 * each full collection, so they apply from the next one on. Answers the flags it set.
 */
export function keepHeapNearLive(execArgv: readonly string[] = process.execArgv): string[] {
  const set = WORKER_HEAP_FLAGS.filter((flag) => !given(execArgv, flag.name)).map((flag) => flag.set);
  for (const flag of set) setFlagsFromString(flag);
  return set;
}
