import type { Clock } from '../../client/clock';
import type { SendPace } from '../queue/create-intents';
import { TURN_LATENESS_MS } from './shared-turns';

export interface RowPacerOptions {
  clock?: Clock;
  /** Creates a second to start from (the service publishes no rate: it is learned from its answers). */
  initialRate?: number;
  /** The most creates a second, learned or not. */
  maxRate?: number;
}

/** A row waiting for its turn to send a create: rows under way go before rows about to start. */
interface Waiter {
  first: boolean;
  grant: (at: number) => void;
}

/**
 * One connection's creates, paced for every run on it (batches and campaigns alike): each create waits
 * its turn, turns a gap apart, so the creates of all runs together never go faster than the rate. A row
 * under way (its next step) goes before a new row, and a run starts a new row only when no create is
 * waiting for a turn (`free`), so how many rows are under way is not a number anyone set: it is the rate
 * times how long the rows' jobs take (Little's law), more rows for slow jobs, fewer for quick ones.
 *
 * The rate is learned the way TCP learns a window: each accepted create raises it a little (about one
 * create a second more per second of full use), each refusal (1005) halves it. The client's own pace
 * (services/client/pace.ts) still shapes every request, polls included; this decides which row's create
 * takes the next one.
 */
export class RowPacer {
  private rate: number;
  private readonly maxRate: number;
  private nextAt = 0;
  private readonly waiters: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Rows started and not yet at their first create's turn: each holds a turn it will ask for. */
  private starting = 0;
  private readonly roomListeners = new Set<() => void>();
  private readonly clock: Clock;

  constructor(options: RowPacerOptions = {}) {
    this.clock = options.clock ?? { now: () => Date.now() };
    this.maxRate = options.maxRate ?? 50;
    this.rate = Math.min(this.maxRate, options.initialRate ?? 4);
  }

  /** Creates a second now. */
  createsPerSecond(): number {
    return this.rate;
  }

  /** True when a new row may start: nobody waits for a turn and no row just started is about to. */
  free(): boolean {
    return this.waiters.length === 0 && this.starting === 0;
  }

  /** A row is starting: it holds the next turn until it asks for it or ends its step without one (`started`). */
  starts(): void {
    this.starting += 1;
  }

  started(): void {
    this.starting = Math.max(0, this.starting - 1);
    this.roomMaybe();
  }

  /** Told each time a new row may start (a turn was given and nobody waits). */
  onRoom(listener: () => void): () => void {
    this.roomListeners.add(listener);
    return () => this.roomListeners.delete(listener);
  }

  /** Resolves at this create's turn, with its time. */
  turn(first: boolean): Promise<number> {
    return new Promise<number>((grant) => {
      const waiter = { first, grant };
      // Rows under way first, each group in the order it asked.
      const at = first ? this.waiters.length : this.waiters.findIndex((w) => w.first);
      this.waiters.splice(at === -1 ? this.waiters.length : at, 0, waiter);
      this.schedule();
    });
  }

  /**
   * A create given its turn at `turnAt`, about to leave: late past the room each second keeps for it, it
   * takes a new turn, or it would crowd those given since. `mayGo` is asked last (the pacer lets every
   * waiter go at a stop, and the run may have been paused or cancelled meanwhile).
   */
  paceFrom(turnAt: number, mayGo: () => Promise<boolean>): SendPace {
    let at = turnAt;
    return {
      late: () => this.clock.now() - at > TURN_LATENESS_MS,
      wait: async () => void (at = await this.turn(false)),
      mayGo,
    };
  }

  /** The create went: the learned rate rises a little. */
  accepted(): void {
    this.rate = Math.min(this.maxRate, this.rate + 1 / this.rate);
  }

  /** The service refused a create as too frequent: half the rate, and how long to wait before that row's again. */
  refused(): number {
    this.rate = Math.max(0.25, this.rate / 2);
    this.nextAt = Math.max(this.nextAt, this.clock.now() + this.gap());
    return Math.ceil(2 * this.gap());
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Nobody waits for a turn of a stopped pacer: the waiting steps see the engine stopped.
    for (const waiter of this.waiters.splice(0)) waiter.grant(this.clock.now());
  }

  private gap(): number {
    return 1000 / this.rate;
  }

  private schedule(): void {
    if (this.timer || this.waiters.length === 0) return;
    // Whole milliseconds, rounded up: a timer rounded down would give a turn early.
    const wait = Math.max(0, Math.ceil(this.nextAt - this.clock.now()));
    if (wait === 0) return this.give();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.give();
    }, wait);
    this.timer.unref?.();
  }

  private give(): void {
    const waiter = this.waiters.shift();
    if (!waiter) return;
    this.nextAt = Math.max(this.nextAt, this.clock.now()) + this.gap();
    if (waiter.first) this.starting = Math.max(0, this.starting - 1);
    waiter.grant(this.clock.now());
    this.schedule();
    this.roomMaybe();
  }

  private roomMaybe(): void {
    if (!this.free()) return;
    for (const listener of [...this.roomListeners]) listener();
  }
}

/** One pacer per connection, shared by every run that sends on it. */
export class RowPacers {
  private readonly pacers = new Map<string, RowPacer>();

  constructor(private readonly options: (connectionId: string) => RowPacerOptions = () => ({})) {}

  of(connectionId: string): RowPacer {
    let pacer = this.pacers.get(connectionId);
    if (!pacer) {
      pacer = new RowPacer(this.options(connectionId));
      this.pacers.set(connectionId, pacer);
    }
    return pacer;
  }

  stop(): void {
    for (const pacer of this.pacers.values()) pacer.stop();
  }
}
