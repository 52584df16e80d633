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
 * The browser journeys and component files: one worker more than there are cores fills the moments a
 * journey waits on its host (vitest's default on two cores would be one), unless memory is short.
 */
export const BUSY_WORKERS = Math.max(1, Math.min(cores + 1, byMemory));

/**
 * The unit files, a group of their own after the others: they mostly wait on child processes, servers
 * and sandbox jobs, so more workers than cores keep the cores busy. On two cores they took 198 s with
 * three workers, 132 s with five, 114 s with seven and 114 s with nine.
 */
export const WAITING_WORKERS = Math.max(1, Math.min(cores + 5, byMemory * 2));
