// How many test files run at once, from the machine the suite finds itself on: its cores, and the memory
// it has free when the run starts. The verdict never depends on this; only how long the run takes does.
import { availableParallelism, freemem } from 'node:os';

const GIB = 1024 ** 3;
// A worker in the browser group holds a web host, its sandbox and a Chromium context at once: a run with
// three such workers used about 3.5 GiB in all, so a GiB each keeps a machine short of memory out of swap.
const MEMORY_PER_WORKER = GIB;

const cores = availableParallelism();
const byMemory = Math.max(1, Math.floor(freemem() / MEMORY_PER_WORKER));

/**
 * Every file of every project, in one group: most of a file's time is waiting (on child processes,
 * servers, sandbox jobs that last seconds, a page's round trips), not CPU. Measured in CPU seconds on two
 * cores, the files that took longest in a busy run spent a twentieth to a third of their time on a core
 * (music-mix 22 of 368 s, queue-reports-again 22 of 209, money-at-scale in Chromium 85 of 589). The
 * browser journeys ran apart, on three workers, then the unit files on seven: each group ended on its
 * longest file with the other workers idle, and 31 minutes went by in CI where the CPU was busy for a
 * fraction of that. Together they share one tail. vitest runs projects of one group together only when
 * their worker counts are the same, hence one count. A worker holding a browser journey needs about a
 * GiB (a web host, its sandbox and a Chromium context), so memory bounds it too.
 */
export const SUITE_WORKERS = Math.max(1, Math.min(cores + 4, byMemory));
