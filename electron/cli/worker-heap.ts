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

const FLAG = '--heap-growing-percent';

/**
 * Sets the worker's heap growing factor for this process, unless its operator gave one to node
 * (`node --heap-growing-percent=N …/studio worker`). V8 reads the factor at each full collection, so it
 * applies from the next one on. Answers the percent now in force, or null when it is the operator's.
 */
export function keepHeapNearLive(execArgv: readonly string[] = process.execArgv): number | null {
  if (execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`))) return null;
  setFlagsFromString(`${FLAG}=${WORKER_HEAP_GROWING_PERCENT}`);
  return WORKER_HEAP_GROWING_PERCENT;
}
