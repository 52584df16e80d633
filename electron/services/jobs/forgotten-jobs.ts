import type { JobRecord } from '../../common/bridge/jobs';
import { dayStart, RECENT_CHARGES } from '../../common/jobs/cost-model';
import { chargeHistory, countedCredits, type ChargeFacts } from './paid-gate';
import type { ChargeRow } from './ledger';

/** Phases a job may leave memory in: ended, and never polled again ("stalled" may be checked again). */
const FORGETTABLE: ReadonlySet<JobRecord['phase']> = new Set(['completed', 'failed', 'outcome-unknown']);
/** Day totals kept: today's and yesterday's (a day's limit is the local day's), the rest go. */
const DAYS_KEPT_MS = 2 * 86_400_000;

/**
 * What the job engine keeps of the records it let go of from memory (a worker's jobs once their row's
 * report was delivered; the ledger on disk keeps them whole): only what the spending gate reads, and a
 * bounded amount whatever the run's length. Per connection and kind, the latest few real charges (the
 * guide for unpublished prices, which reads no more than RECENT_CHARGES); the rest as one total per
 * connection and day (today's spending, for the day's limit).
 */
export class ForgottenJobs {
  /** By connection and kind: the latest real charges let go of, oldest first. */
  private readonly latest = new Map<string, ChargeRow[]>();
  /** By connection and day: one stand-in carrying the day's total of the rest. */
  private readonly days = new Map<string, ChargeFacts>();
  /** Jobs created from here on that are not in memory are counted in the stand-ins (none at first). */
  private countedFrom = Number.POSITIVE_INFINITY;

  /** `jobs`: the engine's records in memory; `followed`: whether the engine still polls or awaits a job. */
  constructor(
    private readonly jobs: Map<string, JobRecord>,
    private readonly followed: (id: string) => boolean,
    /** Told of each job let go of, so no copy of it read from the ledger stays behind (LedgerReads.drop). */
    private readonly dropped: (record: JobRecord) => void = () => undefined,
  ) {}

  /**
   * Takes the jobs that `match` and ended out of memory, keeping what counts of them in the day's total
   * and the guide; a job still active, or still followed, stays. Answers how many went.
   */
  forgetWhere(match: (job: JobRecord) => boolean): number {
    let gone = 0;
    for (const [id, record] of this.jobs) {
      if (!FORGETTABLE.has(record.phase) || this.followed(id) || !match(record)) continue;
      this.jobs.delete(id);
      this.dropped(record);
      this.countedFrom = Math.min(this.countedFrom, record.createdAt);
      this.keep(record);
      gone += 1;
    }
    return gone;
  }

  /**
   * Counts jobs never held in memory (a start reads their columns, not their records): they then
   * stand in the day's totals and the guide as if they had been let go of. `from` is where the rows
   * start: a job created before it was never counted here, so giveBack leaves the totals alone for it.
   */
  takeIn(rows: readonly ChargeRow[], from: number): void {
    this.countedFrom = Math.min(this.countedFrom, from);
    for (const row of [...rows].sort((a, b) => a.createdAt - b.createdAt)) this.keep(row);
  }

  /**
   * A job counted here comes back into memory (read again from the ledger, to change it): its count
   * leaves the stand-ins, so the spending gate counts it once, from its record.
   */
  giveBack(record: ChargeRow): void {
    const list = this.latest.get(`${record.connectionId}\n${record.kind}`);
    const at = list?.findIndex((f) => f.id === record.id) ?? -1;
    if (list && at >= 0) return void list.splice(at, 1);
    if (record.createdAt < this.countedFrom) return;
    const key = `${record.connectionId}\n${dayStart(record.createdAt)}`;
    const day = this.days.get(key);
    const guide = chargeHistory([...this.latest.values()].flat(), record.connectionId);
    if (day) this.days.set(key, { ...day, chargedCredits: (day.chargedCredits ?? 0) - countedCredits(record, guide) });
  }

  /** The records in memory, then what stands for those let go of: what the spending gate reads. */
  *beside(records: Iterable<JobRecord>): Iterable<ChargeFacts> {
    yield* records;
    for (const list of this.latest.values()) yield* list;
    yield* this.days.values();
  }

  private keep(record: ChargeRow): void {
    const { id, connectionId, kind, createdAt, phase, remoteId, chargedCredits, chargeSource, costEstimate } = record;
    const facts = { id, connectionId, kind, createdAt, phase, remoteId, chargedCredits, chargeSource, costEstimate };
    // Only a real charge guides unpublished prices (a failure's is its refund); any other counts in its day's total alone.
    if (chargedCredits === null || chargeSource === 'estimate' || phase === 'failed') return this.addToDay(facts);
    const key = `${connectionId}\n${kind}`;
    const list = this.latest.get(key) ?? [];
    list.push(facts);
    list.sort((a, b) => a.createdAt - b.createdAt);
    this.latest.set(key, list);
    while (list.length > RECENT_CHARGES) this.addToDay(list.shift() as ChargeRow);
  }

  /** Adds a job's count (its charge, else its price as the guide says it now) to its connection's day. */
  private addToDay(facts: ChargeFacts): void {
    const day = dayStart(facts.createdAt);
    const guide = chargeHistory([...this.latest.values()].flat(), facts.connectionId);
    const credits = countedCredits(facts, guide);
    const key = `${facts.connectionId}\n${day}`;
    const earlier = this.days.get(key)?.chargedCredits ?? 0;
    // Counted as an answered job of that day by spentToday; marked 'estimate', so it never guides a price.
    this.days.set(key, {
      connectionId: facts.connectionId,
      kind: facts.kind,
      createdAt: day,
      phase: 'completed',
      remoteId: null,
      chargedCredits: earlier + credits,
      chargeSource: 'estimate',
      costEstimate: null,
    });
    for (const [k, total] of this.days) if (total.createdAt < day - DAYS_KEPT_MS) this.days.delete(k);
  }
}
