// The page's longest main-thread task, as the UI benches measure responsiveness: a PerformanceObserver of
// long tasks (over 50 ms) installed before the page's first script, read and emptied by each look.
import type { Page } from 'playwright-core';

/**
 * The observer, as an init script (`context.addInitScript`). Plain text: the bench's own functions are
 * rewritten by its TypeScript loader with helpers the page does not have.
 */
export const WATCH_LONG_TASKS = `(() => {
  window.longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
})();`;

/** The longest task since the last call, in ms (0: none over 50 ms). */
export async function longestSince(page: Page): Promise<number> {
  return page.evaluate(() => {
    const seen = (window as unknown as { longTasks: number[] }).longTasks;
    const longest = Math.max(0, ...seen);
    seen.length = 0;
    return Math.round(longest);
  });
}
