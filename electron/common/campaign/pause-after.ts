// How long to wait before doing again a task whose cost grows with a run (writing its manifest, reading
// its status): long enough that the task never takes more than a thirtieth (or a hundredth) of its
// thread. Shared by the studio's host (the manifest), the command line (its progress line and live bar)
// and the Campaigns page.

/**
 * However slow the last write was, the next one is never held back longer than this: a crash leaves a
 * manifest at most this far behind its folder. A 100,000-row manifest takes about 2 s to write: with a
 * 10 s cap it took a sixth of the studio's thread; with this one, a fifteenth.
 */
const LONGEST_PAUSE_MS = 30_000;
/** However fast, a write after another waits this long: rows ending several a second share one write. */
const SHORTEST_PAUSE_MS = 1_000;
/**
 * How many times as long as the task its pause is: the task then takes at most a thirtieth (29) or a
 * hundredth (99) of its thread.
 * - `watched`, a status its user follows (the command line's progress, the Campaigns page): a fresh
 *   figure is worth a thirtieth.
 * - `unwatched`, the manifest rewritten while its run goes on: nobody reads it until the run ends, and
 *   the finish, a cancel and a quit write it at once; between, it only keeps a crash from leaving it far
 *   behind its folder. At a thirtieth, its writes took about a seventh of the studio's CPU in the scale
 *   bench at 4,000 rows (each write 35 to 50 ms, one every 1 to 1.5 s, the rows' jobs read for their
 *   costs each time), more than any other part of the studio's work for a row. With a tenth, the studio
 *   wrote its 9,000-row manifest every 1.1 to 1.9 s (each write 110 to 190 ms), and its CPU a row rose
 *   through the run from 25 to 30 ms. A hundredth leaves it at most 15 s behind at 150 ms a write.
 */
export const PAUSE_PER_TASK = { watched: 29, unwatched: 99 } as const;

/**
 * The pause after a task that took `taskMs` whose cost grows with a run: `perTask` times as long (a
 * watched status's by default), at least 1 s and at most 30 s. A manifest's write waits it; so do the
 * command line and the Campaigns page before they read a running campaign's status again (a
 * 100,000-row campaign's status sums 300,000 jobs: about half a second).
 */
export const pauseAfter = (taskMs: number, perTask: number = PAUSE_PER_TASK.watched): number =>
  Math.min(Math.max(perTask * taskMs, SHORTEST_PAUSE_MS), LONGEST_PAUSE_MS);
