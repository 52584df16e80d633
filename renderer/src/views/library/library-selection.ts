import type { JobFilter as HostFilter, JobSelection, JobSort } from '@common/bridge/job-pages';

/**
 * What the user ticked: rows picked by hand, or every job of a filter but the ones unticked since. "All"
 * is kept as the filter it was made under, never as a list, so ticking a million jobs costs nothing
 * and an action sends the filter for the host to walk.
 */
export type TickedJobs =
  | { all: false; ids: ReadonlySet<string> }
  | { all: true; filter: HostFilter; sort: JobSort; descending: boolean; except: ReadonlySet<string> };

export const NOTHING_TICKED: TickedJobs = { all: false, ids: new Set() };

export function tickAll(filter: HostFilter, order: { sort: JobSort; descending: boolean }): TickedJobs {
  return { all: true, filter, ...order, except: new Set() };
}

export function isTicked(ticked: TickedJobs, id: string): boolean {
  return ticked.all ? !ticked.except.has(id) : ticked.ids.has(id);
}

/** Ticks or unticks these rows, keeping the rest of the selection as it was. */
export function setTicked(ticked: TickedJobs, ids: readonly string[], check: boolean): TickedJobs {
  if (ticked.all) {
    const except = new Set(ticked.except);
    for (const id of ids) {
      if (check) except.delete(id);
      else except.add(id);
    }
    return { ...ticked, except };
  }
  const next = new Set(ticked.ids);
  for (const id of ids) {
    if (check) next.add(id);
    else next.delete(id);
  }
  return { all: false, ids: next };
}

/** How many are ticked, given how many jobs the filter of an "all" selection leaves. */
export function tickedCount(ticked: TickedJobs, filterCount: number): number {
  return ticked.all ? Math.max(0, filterCount - ticked.except.size) : ticked.ids.size;
}

/**
 * The ticked jobs as the host takes them, narrowed by the filter now shown: ticks on rows the filter
 * hides are kept but not acted on. Null when nothing is ticked.
 */
export function selectionFor(ticked: TickedJobs, shown: HostFilter): JobSelection | null {
  if (ticked.all)
    return { filter: ticked.filter, sort: ticked.sort, descending: ticked.descending, except: [...ticked.except] };
  if (ticked.ids.size === 0) return null;
  return { filter: { ...shown, ids: [...ticked.ids] } };
}

/** The filter an "all" selection was made under is no longer the one shown: the selection ends. */
export function sameFilter(a: HostFilter, b: HostFilter): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
