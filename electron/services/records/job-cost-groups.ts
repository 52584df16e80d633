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

/**
 * One row of the totals' sums: phase, kind and cost state, how many and their credits; where the
 * groups are summed in the same pass, then the project, the batch and the first creation.
 */
export type TotalsRow = [
  string | null,
  string | null,
  string,
  number,
  number,
  (string | null)?,
  (string | null)?,
  number?,
];

/** The totals of rows grouped by phase, kind and cost state (and by project and batch when `grouped`). */
export function sumTotals(rows: readonly TotalsRow[], grouped: boolean): JobTotals {
  const totals: JobTotals = { count: 0, byPhase: {}, byKind: {}, cost: noCost() };
  const byPhase = totals.byPhase as Record<string, number>;
  const byKind = totals.byKind as Record<string, number>;
  const projects: CostGroupRow[] = [];
  const batches: CostGroupRow[] = [];
  for (const [phase, kind, state, n, credits, project, batch, since = 0] of rows) {
    totals.count += n;
    if (phase !== null) byPhase[phase] = (byPhase[phase] ?? 0) + n;
    if (kind !== null) byKind[kind] = (byKind[kind] ?? 0) + n;
    addCost(totals.cost, state, n, credits);
    if (project) projects.push([project, state, n, credits, since]);
    if (batch) batches.push([batch, state, n, credits, since]);
  }
  if (grouped) {
    totals.projects = costGroups(projects);
    totals.batches = costGroups(batches);
  }
  return totals;
}
