import type { Clock } from '../../client/clock';

export interface RowFlightOptions {
  clock?: Clock;
  /** Rows a run may have under way before any has ended (the service's pace is not known yet). */
  floor?: number;
  /** How many minutes of the service's observed finishing pace may be under way at once. */
  minutes?: number;
}

const WINDOW_MS = 5 * 60_000;
/**
 * The shortest time the pace is measured over. Not a whole minute: early in a run that held the bound at
 * its floor for the first minute (ten rows ended in ten seconds read as ten a minute), so a run went
 * faster once a minute had passed, and the time left shown at its start was twice too long.
 */
const SHORTEST_SPAN_MS = 20_000;

/**
 * How many rows may be under way on a connection: what the service has been finishing in the last few
 * minutes, times a few minutes. Quick steps (voiceovers) must not run thousands of rows ahead of their
 * slow ones (videos): a row is under way from its first step to its end, so the bound follows rows
 * ended, not steps answered. Before any row ends, a small floor lets the first ones go.
 */
export class RowFlight {
  private readonly ended = new Map<string, number[]>();
  private readonly clock: Clock;

  constructor(private readonly options: RowFlightOptions = {}) {
    this.clock = options.clock ?? { now: () => Date.now() };
  }

  /** A row on the connection ended (made, failed or cancelled after it started). */
  rowEnded(connectionId: string): void {
    const at = this.clock.now();
    const times = this.ended.get(connectionId) ?? [];
    times.push(at);
    // Only the window is kept: the list never grows with the run.
    while (times.length > 0 && times[0] < at - WINDOW_MS) times.shift();
    this.ended.set(connectionId, times);
  }

  /** Rows ended a minute on the connection, over the last few minutes (or since the first ended). */
  perMinute(connectionId: string): number {
    const now = this.clock.now();
    const times = (this.ended.get(connectionId) ?? []).filter((t) => t >= now - WINDOW_MS);
    if (times.length === 0) return 0;
    const span = Math.max(SHORTEST_SPAN_MS, now - times[0]);
    return (times.length * 60_000) / span;
  }

  /** The most rows that may be under way on the connection now. */
  bound(connectionId: string): number {
    const floor = this.options.floor ?? 24;
    return Math.max(floor, Math.ceil(this.perMinute(connectionId) * (this.options.minutes ?? 3)));
  }
}
