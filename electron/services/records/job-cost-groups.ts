import type { JobTotals } from '../../common/bridge/job-pages';

export type CostSums = JobTotals['cost'];
type CostGroup = NonNullable<JobTotals['projects']>[number];

/** One row of a grouped sum: the group, its cost state, how many, their credits, its first creation. */
export type CostGroupRow = [string, string, number, number, number];

/** Adds a cost state's count and credits to sums as totalCost() in common/bridge/jobs.ts counts them. */
export function addCost(sums: CostSums, state: string, n: number, credits: number): void {
  if (state === 'charged' || state === 'charged-estimate') sums.charged += credits;
  if (state === 'charged-estimate') sums.chargedByEstimate += credits;
  if (state === 'estimated') sums.estimated += credits;
  if (state === 'unknown') sums.unknown += n;
}

export const noCost = (): CostSums => ({ charged: 0, chargedByEstimate: 0, estimated: 0, unknown: 0 });

/** Rows grouped by (group, cost state) folded into one entry per group, in the order they came. */
export function costGroups(rows: readonly CostGroupRow[]): CostGroup[] {
  const groups = new Map<string, CostGroup>();
  for (const [id, state, n, credits, since] of rows) {
    const group = groups.get(id) ?? { id, count: 0, since, cost: noCost() };
    group.count += n;
    group.since = Math.min(group.since, since);
    addCost(group.cost, state, n, credits);
    groups.set(id, group);
  }
  return [...groups.values()];
}
