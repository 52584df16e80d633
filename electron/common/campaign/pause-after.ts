// How long to wait before doing again a task whose cost grows with a run (writing its manifest, reading
// its status): long enough that the task never takes more than a thirtieth of its thread. Shared by the
// studio's host (the manifest), the command line (its progress line and live bar) and the Campaigns page.

/**
 * However slow the last write was, the next one is never held back longer than this: a crash leaves a
 * manifest at most this far behind its folder. A 100,000-row manifest takes about 2 s to write: with a
 * 10 s cap it took a sixth of the studio's thread; with this one, a fifteenth.
 */
const LONGEST_PAUSE_MS = 30_000;
/** However fast, a write after another waits this long: rows ending several a second share one write. */
const SHORTEST_PAUSE_MS = 1_000;
/**
 * A pause 29 times as long as the last write: a write whose cost grows with a run takes at most a
 * thirtieth of the thread. With a fifth, a 10,000-row campaign's manifest took about as much of the
 * studio's CPU as everything else it did for the run; with a tenth, the scale bench's studio wrote its
 * 9,000-row manifest every 1.1 to 1.9 s (each write 110 to 190 ms), and its CPU a row rose through the
 * run from 25 to 30 ms. Its rows' videos are in the folder as they end; the manifest that lists them is
 * at most a few seconds later (4.4 s at 150 ms a write), and the finish writes it at once.
 */
const PAUSE_PER_WRITE = 29;

/**
 * The pause after a task that took `taskMs` whose cost grows with a run: 29 times as long, at least 1 s and
 * at most 30 s. A manifest's write waits it; so do the command line and the Campaigns page before they
 * read a running campaign's status again (a 100,000-row campaign's status sums 300,000 jobs: about half a
 * second).
 */
export const pauseAfter = (taskMs: number): number =>
  Math.min(Math.max(PAUSE_PER_WRITE * taskMs, SHORTEST_PAUSE_MS), LONGEST_PAUSE_MS);
