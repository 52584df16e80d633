import { z } from 'zod';
import { JOB_KINDS } from '../jobs/kinds';
import { JOB_PHASES } from '../jobs/phases';

// The Library's questions about the ledger, answered by the host's database a page at a time: nobody
// holds every job. Every field is optional so a caller states only what narrows; the host fills defaults.

const DAY_MS = 86_400_000;
const kind = z.enum(JOB_KINDS);
const phase = z.enum(JOB_PHASES);
const id = z.string().min(1).max(200);
/** Milliseconds since 1970, as createdAt is kept. */
const time = z.number().int().min(0).max(8.64e15);

/** The most job ids one question names (a hand-picked selection, or the ids left out of "all"). */
export const MAX_LISTED_JOBS = 20_000;

/** What narrows the jobs; fields left out (or empty lists) do not. */
export const JobFilter = z
  .object({
    kinds: z.array(kind).max(JOB_KINDS.length).optional(),
    /** The Library's tabs are sets of phases (active, done, problems). */
    phases: z.array(phase).max(JOB_PHASES.length).optional(),
    /** A project's id; null: jobs made for no project. */
    projectId: id.nullable().optional(),
    batchId: id.optional(),
    campaignId: id.optional(),
    connectionId: id.optional(),
    /** Created at or after this. */
    createdFrom: time.optional(),
    /** Created before this. */
    createdBefore: time.optional(),
    /** Completed, and their result's link expires within this long from now (not already). */
    expiringWithinMs: z
      .number()
      .int()
      .positive()
      .max(7 * DAY_MS)
      .optional(),
    /** Words in the summary (any case), or the start of the studio's or the service's id. */
    search: z.string().max(200).optional(),
    /** Projects whose name the search matches: a job of one matches it too (names live in the project files). */
    searchProjectIds: z.array(id).max(MAX_LISTED_JOBS).optional(),
    /** The start of the studio's id or the service's, exactly (a job named on a command line). */
    idStartsWith: z.string().min(1).max(100).optional(),
    /**
     * Completed jobs whose result stands on its own (not a step of another's): false, those with no
     * verified copy on disk ("Not saved"); true, those with one. The host knows the copies, not the caller.
     */
    saved: z.boolean().optional(),
    /** Only these jobs (a hand-picked selection, narrowed by the rest of the filter). */
    ids: z.array(id).max(MAX_LISTED_JOBS).optional(),
  })
  .strict();
export type JobFilter = z.infer<typeof JobFilter>;

export const JOB_SORTS = ['created', 'kind', 'phase', 'cost'] as const;
export const JobSort = z.enum(JOB_SORTS);
export type JobSort = z.infer<typeof JobSort>;

/** The most jobs one page holds: a screenful many times over, and a bounded answer. */
export const MAX_PAGE_JOBS = 500;

/**
 * A page of jobs: the filter, an order (default newest first; ties broken by creation, then id, so the
 * order is total), and where to start: `after` a page's `next` cursor (stable while jobs come and go),
 * or `offset` rows in (a scrollbar dragged to the middle).
 */
export const JobPageQuery = z
  .object({
    filter: JobFilter.optional(),
    sort: JobSort.optional(),
    descending: z.boolean().optional(),
    limit: z.number().int().min(1).max(MAX_PAGE_JOBS),
    offset: z.number().int().min(0).max(100_000_000).optional(),
    after: z.string().min(1).max(1000).optional(),
  })
  .strict()
  .refine((q) => q.offset === undefined || q.after === undefined, 'give either offset or after, not both');
export type JobPageQuery = z.infer<typeof JobPageQuery>;

/** What a set of jobs cost, as totalCost() adds it up (see CostTotal). */
const CostSums = z.object({
  charged: z.number(),
  chargedByEstimate: z.number(),
  estimated: z.number(),
  unknown: z.number().int(),
});

/** What a totals question also asks: the sums per project and per batch (a pass over an index each). */
export const TotalsOptions = z.object({ groups: z.boolean().optional() }).strict();
export type TotalsOptions = z.infer<typeof TotalsOptions>;

/** A project's or a batch's share of the jobs: its cost, and when its first job was made. */
const CostGroup = z.object({ id: z.string(), count: z.number().int(), since: z.number(), cost: CostSums });

/** Counts and cost sums of the jobs a filter leaves, computed by the database. */
export const JobTotals = z.object({
  count: z.number().int(),
  byPhase: z.partialRecord(phase, z.number().int()),
  byKind: z.partialRecord(kind, z.number().int()),
  cost: CostSums,
  /** The same sums per project and per batch (the Library's cost lines and its filter choices). */
  projects: z.array(CostGroup).optional(),
  batches: z.array(CostGroup).optional(),
});
export type JobTotals = z.infer<typeof JobTotals>;

/**
 * Jobs chosen by a filter rather than listed: every job it leaves but `except`, in its order. The
 * Library's "select all" over any number of jobs; the host walks the filter a page at a time.
 */
export const JobSelection = z
  .object({
    filter: JobFilter,
    sort: JobSort.optional(),
    descending: z.boolean().optional(),
    except: z.array(id).max(MAX_LISTED_JOBS).optional(),
  })
  .strict();
export type JobSelection = z.infer<typeof JobSelection>;
