import { backoffDelay, type BackoffPolicy, type Random } from '../client/backoff';
import type { Clock } from '../client/clock';
import type { WakeHint } from './polling-strategy';

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // Polling alone must not keep a CLI process alive once its work is done.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type PollState = 'queued' | 'processing';

/** What one poll learnt. */
export type PollOutcome =
  | { type: 'progress'; state: PollState; changed: boolean }
  | { type: 'done' }
  | { type: 'rate-limited'; retryAfterMs?: number }
  | { type: 'error' };

export interface SchedulerOptions {
  clock: Clock;
  timers?: Timers;
  random?: Random;
  /** Requests in flight at once (2–4 keeps a rate-limited service happy). */
  maxInFlight?: number;
  queued?: BackoffPolicy;
  processing?: BackoffPolicy;
  /** After network or HTTP errors. */
  errors?: BackoffPolicy;
  /** After a 1005 without Retry-After: how long all polling pauses. */
  rateLimit?: BackoffPolicy;
  /** Called when a job passes its deadline; the scheduler stops tracking it. */
  onDeadline?: (id: string) => void;
  /**
   * When a poll of this job is likely to learn something (from how long similar jobs took): polls
   * before `at` are skipped (up to maxSleepMs at a time), then happen every `stepMs`. Undefined: no
   * knowledge, the usual backoff.
   */
  wakeHint?: (id: string) => WakeHint | undefined;
  maxSleepMs?: number;
}

/** Steps that widen (a hint's growth) stop at this width, the naive poller's pace, or the hint's own step if wider. */
const MAX_GROWN_STEP_MS = 2_000;

export const pollPolicies = {
  queued: { baseMs: 3_000, capMs: 15_000, factor: 1.6, jitter: 0.3 },
  processing: { baseMs: 1_000, capMs: 4_000, factor: 1.5, jitter: 0.3 },
  errors: { baseMs: 2_000, capMs: 60_000, factor: 2, jitter: 0.5 },
  rateLimit: { baseMs: 5_000, capMs: 60_000, factor: 2, jitter: 0.3 },
} satisfies Record<string, BackoffPolicy>;

interface Entry {
  id: string;
  state: PollState;
  nextAt: number;
  deadlineAt: number;
  /** Polls in a row that saw no change; drives the backoff. */
  unchanged: number;
  errors: number;
  /** Bumped whenever the entry is rescheduled, so stale heap items are skipped. */
  version: number;
  inFlight: boolean;
}

interface HeapItem {
  at: number;
  id: string;
  version: number;
}

/** A binary min-heap by time; stale items are dropped lazily when popped. */
class TimeHeap {
  private readonly items: HeapItem[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): HeapItem | undefined {
    return this.items[0];
  }
  push(item: HeapItem): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent].at <= items[i].at) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }
  pop(): HeapItem | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let smallest = i;
        if (l < items.length && items[l].at < items[smallest].at) smallest = l;
        if (r < items.length && items[r].at < items[smallest].at) smallest = r;
        if (smallest === i) break;
        [items[smallest], items[i]] = [items[i], items[smallest]];
        i = smallest;
      }
    }
    return top;
  }
}

/**
 * One scheduler for every active job: a next-poll time per job (queued jobs slower than processing
 * ones, backing off while nothing changes), a few polls in flight, a global pause when the service
 * says 1005, and a deadline per job. One timer, armed for the earliest due job.
 */
export class PollScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly heap = new TimeHeap();
  private readonly timers: Timers;
  private readonly random: Random;
  private readonly maxInFlight: number;
  private inFlight = 0;
  private pausedUntil = 0;
  private rateLimitStrikes = 0;
  private timer: unknown;
  private timerAt = Number.POSITIVE_INFINITY;
  private stopped = false;
  private readonly controller = new AbortController();

  constructor(
    private readonly poll: (id: string, signal: AbortSignal) => Promise<PollOutcome>,
    private readonly options: SchedulerOptions,
  ) {
    this.timers = options.timers ?? realTimers;
    this.random = options.random ?? Math.random;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 4);
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Starts (or restarts) tracking a job; its first poll is after `firstDelayMs` (default: its state's base). */
  track(id: string, state: PollState, deadlineAt: number, firstDelayMs?: number): void {
    if (this.stopped) return;
    const existing = this.entries.get(id);
    const entry: Entry = existing ?? {
      id,
      state,
      nextAt: 0,
      deadlineAt,
      unchanged: 0,
      errors: 0,
      version: 0,
      inFlight: false,
    };
    entry.state = state;
    entry.deadlineAt = deadlineAt;
    entry.unchanged = 0;
    this.entries.set(id, entry);
    // An explicit first poll "now" (the user asked) is never put to sleep by a hint.
    if (!entry.inFlight)
      this.schedule(entry, firstDelayMs === 0 ? 0 : this.hinted(entry, firstDelayMs ?? this.delay(entry)));
  }

  /**
   * Brings a job's next poll forward when its wake hint changed (its kind's length was learnt). Never
   * later: hints change at every end in a burst, and a poll put off each time would never happen. A job
   * asleep past the time it should have woken (a cohort that slept behind its scouts until they learnt
   * the length) is polled at once rather than a step later: in a burst its end has usually come.
   */
  rehint(id: string): void {
    const entry = this.entries.get(id);
    if (!entry || entry.inFlight || entry.errors > 0) return;
    const hint = this.options.wakeHint?.(entry.id);
    const now = this.options.clock.now();
    const overslept = hint !== undefined && hint.at <= now && entry.nextAt > now + (hint.stepMs ?? 0);
    const delay = overslept ? 0 : this.hinted(entry, this.delay(entry), hint);
    if (this.options.clock.now() + delay < entry.nextAt) this.schedule(entry, delay);
  }

  /** Polls a job as soon as a slot is free. */
  pollSoon(id: string): void {
    const entry = this.entries.get(id);
    if (entry && !entry.inFlight) this.schedule(entry, 0);
  }

  untrack(id: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.version += 1;
    this.entries.delete(id);
  }

  /** Aborts polls in flight and stops scheduling (on quit). */
  stop(): void {
    this.stopped = true;
    this.controller.abort(new Error('The job scheduler stopped'));
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.entries.clear();
  }

  private delay(entry: Entry): number {
    if (entry.errors > 0)
      return backoffDelay(entry.errors - 1, this.options.errors ?? pollPolicies.errors, this.random);
    const policy =
      entry.state === 'queued'
        ? (this.options.queued ?? pollPolicies.queued)
        : (this.options.processing ?? pollPolicies.processing);
    return backoffDelay(entry.unchanged, policy, this.random);
  }

  /** A hinted job sleeps until its hint (at most maxSleepMs), then polls in the hint's steps. */
  private hinted(entry: Entry, delayMs: number, hint = this.options.wakeHint?.(entry.id)): number {
    if (hint === undefined) return delayMs;
    const sleep = hint.at - this.options.clock.now();
    if (sleep <= 0) {
      if (hint.stepMs === undefined) return delayMs;
      const grown = hint.stepMs * (hint.growth ?? 1) ** Math.max(0, entry.unchanged - 1);
      return Math.min(grown, Math.max(hint.stepMs, MAX_GROWN_STEP_MS));
    }
    // After a sleep the backoff starts over: the job is now at the point where change is likely.
    entry.unchanged = 0;
    return Math.min(sleep, this.options.maxSleepMs ?? 60_000);
  }

  private schedule(entry: Entry, delayMs: number): void {
    entry.version += 1;
    entry.nextAt = this.options.clock.now() + Math.max(0, delayMs);
    this.heap.push({ at: entry.nextAt, id: entry.id, version: entry.version });
    this.pump();
  }

  private pump(): void {
    if (this.stopped) return;
    const now = this.options.clock.now();
    while (this.inFlight < this.maxInFlight && now >= this.pausedUntil) {
      const top = this.heap.peek();
      if (!top) break;
      const entry = this.entries.get(top.id);
      if (!entry || entry.version !== top.version || entry.inFlight) {
        this.heap.pop();
        continue;
      }
      if (top.at > now) break;
      this.heap.pop();
      if (now >= entry.deadlineAt) {
        this.untrack(entry.id);
        this.options.onDeadline?.(entry.id);
        continue;
      }
      this.start(entry);
    }
    this.arm();
  }

  private arm(): void {
    let next = Number.POSITIVE_INFINITY;
    if (this.inFlight < this.maxInFlight) {
      while (this.heap.size > 0) {
        const top = this.heap.peek() as HeapItem;
        const entry = this.entries.get(top.id);
        if (entry && entry.version === top.version && !entry.inFlight) break;
        this.heap.pop();
      }
      const top = this.heap.peek();
      if (top) next = Math.max(top.at, this.pausedUntil);
    }
    if (next === this.timerAt) return;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(0, next - this.options.clock.now()),
    );
  }

  private start(entry: Entry): void {
    entry.inFlight = true;
    this.inFlight += 1;
    const finish = (outcome: PollOutcome): void => {
      entry.inFlight = false;
      this.inFlight -= 1;
      if (this.stopped) return;
      if (this.entries.get(entry.id) !== entry) {
        this.pump();
        return;
      }
      this.apply(entry, outcome);
      this.pump();
    };
    this.poll(entry.id, this.controller.signal).then(finish, () => finish({ type: 'error' }));
  }

  private apply(entry: Entry, outcome: PollOutcome): void {
    switch (outcome.type) {
      case 'done':
        this.untrack(entry.id);
        return;
      case 'progress':
        this.rateLimitStrikes = 0;
        entry.errors = 0;
        if (outcome.changed || outcome.state !== entry.state) entry.unchanged = 0;
        else entry.unchanged += 1;
        entry.state = outcome.state;
        this.schedule(entry, this.hinted(entry, this.delay(entry)));
        return;
      case 'rate-limited': {
        const wait =
          outcome.retryAfterMs ??
          backoffDelay(this.rateLimitStrikes, this.options.rateLimit ?? pollPolicies.rateLimit, this.random);
        this.rateLimitStrikes += 1;
        this.pausedUntil = Math.max(this.pausedUntil, this.options.clock.now() + wait);
        entry.version += 1;
        entry.nextAt = this.pausedUntil;
        this.heap.push({ at: entry.nextAt, id: entry.id, version: entry.version });
        return;
      }
      case 'error':
        entry.errors += 1;
        this.schedule(entry, this.delay(entry));
        return;
    }
  }
}
