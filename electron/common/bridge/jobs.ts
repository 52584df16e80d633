import { z } from 'zod';
import { call } from './contract';

import { JOB_KINDS, JOB_KIND_REGISTRY, bodySchemaOf, type JobBody } from '../jobs/kinds';
import { JOB_PHASES } from '../jobs/phases';
import { JobPurpose } from '../jobs/purpose';
import { PAID_ACTIONS, PaidConfirmation, Price, creditsText } from '../jobs/cost-model';
import { JobFilter, JobPageQuery, JobTotals, TotalsOptions } from './job-pages';

export { JOB_KINDS, JOB_KIND_LABELS, isAudioKind } from '../jobs/kinds';
export type { JobBody, RemoteSnapshot } from '../jobs/kinds';
export { JOB_PHASES, phaseClass, isActivePhase, isFinalPhase, type PhaseClass } from '../jobs/phases';
export { JobPurpose, voiceoverHash, type PurposeType } from '../jobs/purpose';
export * from '../jobs/cost-model';
export * from './job-pages';

export const JobKind = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof JobKind>;
export const JobPhase = z.enum(JOB_PHASES);
export type JobPhase = z.infer<typeof JobPhase>;

export const CostEstimate = z.object({
  credits: z.number().nonnegative(),
  /** How the figure was reached, e.g. "12 s at 720p: 3 × 10 credits per 5 s". */
  basis: z.string(),
});
export type CostEstimate = z.infer<typeof CostEstimate>;

export const JobError = z.object({
  code: z.number().nullable(),
  /** What happened and what the user can do, in plain words. */
  explanation: z.string(),
  message: z.string(),
  endpoint: z.string().nullable(),
});
export type JobError = z.infer<typeof JobError>;

/**
 * Where a job's charge came from: the service's own figure in its answer (`deduction_credit`, or a
 * finished video's `deduction_duration`), the balance's fall around its create (a job made by hand while
 * nothing else was being created on its connection), the published price it was sent at (the model
 * list's `unit_credit`, the character swap table), or an estimate from this connection's recent charges.
 */
export const ChargeSource = z.enum(['service', 'balance', 'published', 'estimate']);
export type ChargeSource = z.infer<typeof ChargeSource>;

export const CHARGE_SOURCE_LABELS: Record<ChargeSource, string> = {
  service: "the service's own figure",
  balance: 'the balance before and after its create',
  published: 'the published price',
  estimate: "an estimate from this connection's recent charges",
};

/** One job as the ledger keeps it (the page sees a JobView of it). Holds no credentials. */
export const JobRecord = z.object({
  id: z.string(),
  kind: JobKind,
  phase: JobPhase,
  remoteId: z.string().nullable(),
  connectionId: z.string(),
  connectionName: z.string(),
  projectId: z.string().nullable(),
  /** One line describing the request ("TTS · voice Ada · "Hello there…""). */
  summary: z.string(),
  requestHash: z.string(),
  /** The body as sent (it never contains credentials). */
  request: z.unknown(),
  createdAt: z.number(),
  updatedAt: z.number(),
  finishedAt: z.number().nullable(),
  /** Results are kept by the service for 7 days from creation. */
  expiresAt: z.number().nullable(),
  deadlineAt: z.number(),
  remoteStatus: z.number().nullable(),
  resultUrl: z.string().nullable(),
  costEstimate: CostEstimate.nullable(),
  chargedCredits: z.number().nullable(),
  error: JobError.nullable(),
  /** The service's latest answer for this job (its record's data). */
  answer: z.unknown(),
  /** What the job is for; records written before purposes existed read as plain. */
  purpose: JobPurpose.default({ type: 'plain' }),
  /** When the reactor finished acting on the job's end (null: not yet), so it acts once across restarts. */
  reactedAt: z.number().nullable().default(null),
  polls: z.number().int().nonnegative(),
  /** The last time the service said the job was unfinished: with finishedAt, it bounds how long it took. */
  activeSeenAt: z.number().nullable().optional(),
  /**
   * When the create that made the job left (its last attempt): the job's time at the service starts
   * then. createdAt is earlier, before the ledger write and the create's turn at the connection's pace.
   */
  sentAt: z.number().nullable().optional(),
  /** Who agreed to pay, and for what figure (records written before confirmations existed have none). */
  confirmation: PaidConfirmation.optional(),
  /** The connection's balance (quota/info) just before the create left and just after it was answered. */
  balanceBefore: z.number().nullable().optional(),
  balanceAfter: z.number().nullable().optional(),
  /** Where chargedCredits came from (records written before this was kept say 'service' or 'balance', or nothing). */
  chargeSource: ChargeSource.nullable().optional(),
});
export type JobRecord = z.infer<typeof JobRecord>;

/**
 * One job as the page sees it: what the library, the editor and the tools show of a record, and an
 * estimated progress. The ledger's bookkeeping (request hash, reaction, timings, deadline) stays out,
 * so the record's file format can change without changing the page's contract.
 */
export const JobView = JobRecord.pick({
  id: true,
  kind: true,
  phase: true,
  remoteId: true,
  remoteStatus: true,
  connectionId: true,
  connectionName: true,
  projectId: true,
  summary: true,
  request: true,
  answer: true,
  createdAt: true,
  finishedAt: true,
  expiresAt: true,
  resultUrl: true,
  costEstimate: true,
  chargedCredits: true,
  chargeSource: true,
  error: true,
  purpose: true,
  polls: true,
}).extend({
  /** 0..1, an estimate: the service reports only a status. */
  progress: z.number().min(0).max(1),
});
export type JobView = z.infer<typeof JobView>;

const submissionOf = <K extends (typeof JOB_KINDS)[number]>(kind: K) =>
  z.object({
    kind: z.literal(kind),
    body: bodySchemaOf(kind) as z.ZodType<JobBody<K>>,
    projectId: z.string().max(200).optional(),
    purpose: JobPurpose.optional(),
    /** The user saw the "duplicate, confirm?" answer and wants to send it anyway. */
    confirmDuplicate: z.boolean().optional(),
    /** Who agreed to pay for it: required, so a create path without it does not compile (the engine refuses one at run time too). */
    confirmation: PaidConfirmation,
  });

/** A paid job to create: one variant per kind, its body typed by the kind's create operation. */
export const JobSubmission = z.discriminatedUnion('kind', [
  submissionOf('avatar-video'),
  submissionOf('talking-avatar'),
  submissionOf('tts'),
  submissionOf('voice-clone'),
  submissionOf('lipsync'),
  submissionOf('character-swap'),
  submissionOf('avatar-upload'),
]);
export type JobSubmission = z.infer<typeof JobSubmission>;
/** A submission before anyone agreed to pay for it (a screen asks, then adds the confirmation). */
export type UnconfirmedSubmission = JobSubmission extends infer S
  ? S extends unknown
    ? Omit<S, 'confirmation'>
    : never
  : never;

// The union above lists every kind of the registry: a kind missing from it makes this line fail to
// compile, with the missing kind's name as the type `true` is not assignable to.
type UnlistedKind = Exclude<keyof typeof JOB_KIND_REGISTRY, JobSubmission['kind']>;
const everyKindListed: [UnlistedKind] extends [never] ? true : UnlistedKind = true;
void everyKindListed;

export const SubmitResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('submitted'), job: JobView }),
  z.object({
    status: z.literal('duplicate'),
    /** The earlier job with the same request on the same connection. */
    existing: JobView,
    message: z.string(),
  }),
]);
export type SubmitResult = z.infer<typeof SubmitResult>;

const jobId = z.string().min(1).max(100);

/** One page of jobs; `next` is the cursor to pass as `after` for the page after it (null: none). */
export const JobPage = z.object({ jobs: z.array(JobView), next: z.string().nullable() });
export type JobPage = z.infer<typeof JobPage>;

/**
 * One line of a price question: a paid action, the body it will send where the price depends on it (a
 * character swap's duration and resolution; local files need not be links yet), and how many of it.
 */
export const QuoteItem = z.object({
  action: z.enum(PAID_ACTIONS),
  body: z.record(z.string(), z.unknown()).optional(),
  count: z.number().int().positive().max(100_000).optional(),
});
export type QuoteItem = z.input<typeof QuoteItem>;

/** What the confirmation shows: each line's price, the balance read just now, and today's limit. */
export const PriceQuote = z.object({
  items: z.array(z.object({ action: z.enum(PAID_ACTIONS), count: z.number(), price: Price })),
  connectionId: z.string(),
  connectionName: z.string(),
  /** quota/info's answer now; null where the service does not answer it. */
  balance: z.number().nullable(),
  balanceAt: z.number(),
  /** Today's limit on this connection (null: none), and what today's actions cost or are expected to. */
  dailyLimit: z.number().nullable(),
  spentToday: z.number(),
  /** Published prices up to this go out without the question (null: always ask). */
  skipQuestionUnder: z.number().nullable(),
});
export type PriceQuote = z.infer<typeof PriceQuote>;

export const jobsCalls = {
  /** Sends a create (after writing it to the ledger) and starts polling it. */
  'jobs.submit': call(z.tuple([JobSubmission]), SubmitResult),
  /** The price of what is about to be sent (published, or honestly not) with the balance read now. */
  'jobs.quote': call(z.tuple([z.array(QuoteItem).min(1).max(100)]), PriceQuote),
  'jobs.list': call(z.tuple([]), z.array(JobView)),
  /** A page of the jobs a filter leaves, in an order; `next` continues after its last row (null: the last page). */
  'jobs.page': call(z.tuple([JobPageQuery]), JobPage),
  /** How many jobs a filter leaves, by phase and kind, and what they cost (per project and batch if asked). */
  'jobs.totals': call(z.tuple([JobFilter, TotalsOptions.optional()]), JobTotals),
  'jobs.get': call(z.tuple([jobId]), JobView),
  /** Polls now; for a stalled job, resumes polling; a job nobody follows yet is followed from now. */
  'jobs.refresh': call(z.tuple([jobId]), JobView),
  /** Removes the job from the list (the service keeps its own copy). */
  'jobs.remove': call(z.tuple([jobId]), z.void()),
};

export const jobsEvents = {
  'jobs.changed': JobView,
  'jobs.removed': z.object({ id: z.string() }),
};

export const JOB_PHASE_LABELS: Record<JobPhase, string> = {
  submitting: 'Sending',
  queued: 'Queued',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  'outcome-unknown': 'Outcome unknown',
  stalled: 'Stopped checking',
};

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** How long the result stays downloadable, or why there is nothing to count down. */
export function describeExpiry(job: Pick<JobRecord, 'expiresAt' | 'phase'>, now: number): string {
  if (job.expiresAt === null) return '—';
  const left = job.expiresAt - now;
  if (left <= 0) return 'expired';
  return `${formatDuration(left)} left`;
}

export function describeCost(
  job: Pick<JobRecord, 'chargedCredits' | 'costEstimate' | 'phase' | 'remoteId'> &
    Pick<Partial<JobRecord>, 'chargeSource'>,
): string {
  // An estimate is marked as one, like the price of a job not answered yet.
  if (job.chargedCredits !== null)
    return `${job.chargeSource === 'estimate' ? '~' : ''}${creditsText(job.chargedCredits)}`;
  // Refused at create: the service made no job, so nothing was charged.
  if (job.phase === 'failed' && job.remoteId === null) return 'not charged';
  if (job.costEstimate) return `~${job.costEstimate.credits} credits`;
  if (job.phase === 'submitting') return 'sending…';
  // Sent, charged by the service, but neither a published price nor a balance reading says how much.
  return job.remoteId === null ? 'unknown' : 'not published';
}

/** The cost with where it came from, for a job's details: "30 credits (the service's own figure)". */
export function describeCharge(
  job: Pick<JobRecord, 'chargedCredits' | 'costEstimate' | 'phase' | 'remoteId'> &
    Pick<Partial<JobRecord>, 'chargeSource'>,
): string {
  const cost = describeCost(job);
  if (job.chargedCredits !== null)
    return job.chargeSource ? `${cost} (${CHARGE_SOURCE_LABELS[job.chargeSource]})` : cost;
  const refused = job.phase === 'failed' && job.remoteId === null;
  return job.costEstimate && !refused ? `${cost} (estimate: ${job.costEstimate.basis})` : cost;
}

/** What the shown jobs cost, in all and per project and per batch (the groups a user pays for together). */
export function costGroups(jobs: readonly JobView[]): {
  all: CostTotal;
  projects: Map<string, CostTotal>;
  batches: Map<string, CostTotal>;
} {
  const by = (key: (job: JobView) => string | null) => {
    const groups = new Map<string, JobView[]>();
    for (const job of jobs) {
      const k = key(job);
      if (k !== null) groups.set(k, [...(groups.get(k) ?? []), job]);
    }
    return new Map([...groups].map(([k, list]) => [k, totalCost(list)]));
  };
  return {
    all: totalCost(jobs),
    projects: by((j) => j.projectId),
    batches: by((j) => (j.purpose.type === 'batch-row' ? j.purpose.batchId : null)),
  };
}

export interface CostTotal {
  charged: number;
  /** The part of `charged` that is the studio's estimate, not a figure from the service or its prices. */
  chargedByEstimate: number;
  estimated: number;
  unknown: number;
}

/** "63 credits", "63 credits (~60 of them estimated) + about 30 on their way", "… and 2 not known yet". */
export function describeTotalCost(total: CostTotal): string {
  const parts = [
    creditsText(total.charged) +
      (total.chargedByEstimate > 0 ? ` (~${creditsText(total.chargedByEstimate)} of them estimated)` : ''),
  ];
  if (total.estimated > 0) parts.push(`about ${creditsText(total.estimated)} more on their way`);
  if (total.unknown > 0)
    parts.push(`${total.unknown} job${total.unknown === 1 ? '' : 's'} whose cost is not known yet`);
  return parts.join(' + ');
}

/** What a set of jobs cost: the charged credits, the estimates of those not yet charged, and how many say nothing. */
export function totalCost(
  jobs: readonly Pick<JobRecord, 'chargedCredits' | 'chargeSource' | 'costEstimate' | 'phase' | 'remoteId'>[],
): CostTotal {
  let charged = 0;
  let chargedByEstimate = 0;
  let estimated = 0;
  let unknown = 0;
  for (const job of jobs) {
    if (job.chargedCredits !== null) {
      charged += job.chargedCredits;
      if (job.chargeSource === 'estimate') chargedByEstimate += job.chargedCredits;
    } else if (job.phase === 'failed' && job.remoteId === null) continue;
    else if (job.costEstimate) estimated += job.costEstimate.credits;
    else unknown += 1;
  }
  return { charged, chargedByEstimate, estimated, unknown };
}
