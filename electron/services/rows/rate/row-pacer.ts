/**
 * New rows whose first create may be on its way at once. One at a time made a campaign's start crawl on a
 * busy machine (each new row waited for the last one's create to be written down and leave), while the
 * rows under way lose at most this many turns to new rows: their creates still go first at the pacer.
 */
export const NEW_ROWS_IN_LINE = 4;

/**
 * One connection's row order, shared by every run on it (batches and campaigns alike): rows under way go
 * before new ones. It holds no rate: every request waits for its turn at the transport's limiter
 * (client/limiter.ts), which alone learns from the service's refusals. What it decides is which create
 * joins the limiter's line: a new row's first create waits while a create of a row under way has not
 * left (`turn`), and a run starts a new row only while fewer than NEW_ROWS_IN_LINE new rows are starting
 * or have their first create on its way (`free`). So rows start as their creates leave, when the rate
 * has room, and never crowd out the rows already paid for; how many may be under way at once is bounded
 * by the row starts (row-flight.ts).
 */
export class RowPacer {
  /** Creates on their way (asked for, not yet left), by whether they are a new row's first. */
  private readonly going = { first: 0, underWay: 0 };
  /** New rows' first creates waiting for the creates of rows under way to leave. */
  private readonly firsts: (() => void)[] = [];
  /** Rows started and not yet at their first create: a start in the same breath would send beside it. */
  private starting = 0;
  private readonly roomListeners = new Set<() => void>();

  /** True when a new row may start: fewer than NEW_ROWS_IN_LINE new rows are starting or sending their first create. */
  free(): boolean {
    return this.starting + this.going.first + this.firsts.length < NEW_ROWS_IN_LINE;
  }

  /** A row is starting: the pacer is not free until it asks for its first create's turn, or ends its step without one (`started`). */
  starts(): void {
    this.starting += 1;
  }

  started(): void {
    this.starting = Math.max(0, this.starting - 1);
    this.roomMaybe();
  }

  /** Told each time a new row may start (a new row's first create left, or a start ended without one). */
  onRoom(listener: () => void): () => void {
    this.roomListeners.add(listener);
    return () => this.roomListeners.delete(listener);
  }

  /**
   * A create about to be sent: resolves when it may go, with the call that says it left (the transport
   * let it go at its turn, or it will not be sent). A row under way's goes at once; a new row's first
   * waits while a create of a row under way has not left.
   */
  async turn(first: boolean): Promise<() => void> {
    if (first) this.starting = Math.max(0, this.starting - 1);
    // Counted when let go, so that the pacer is never free in between.
    if (first && this.going.underWay > 0) await new Promise<void>((go) => this.firsts.push(go));
    else this.going[first ? 'first' : 'underWay'] += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.going[first ? 'first' : 'underWay'] -= 1;
      if (this.going.underWay === 0) this.letFirstsGo();
      this.roomMaybe();
    };
  }

  /** Nobody waits on a stopped engine: the waiting steps see it stopped. */
  stop(): void {
    this.letFirstsGo();
  }

  private roomMaybe(): void {
    if (this.free()) for (const listener of [...this.roomListeners]) listener();
  }

  private letFirstsGo(): void {
    const firsts = this.firsts.splice(0);
    this.going.first += firsts.length;
    for (const go of firsts) go();
  }
}

/** One pacer per connection, shared by every run that sends on it. */
export class RowPacers {
  private readonly pacers = new Map<string, RowPacer>();

  of(connectionId: string): RowPacer {
    let pacer = this.pacers.get(connectionId);
    if (!pacer) {
      pacer = new RowPacer();
      this.pacers.set(connectionId, pacer);
    }
    return pacer;
  }

  stop(): void {
    for (const pacer of this.pacers.values()) pacer.stop();
  }
}
