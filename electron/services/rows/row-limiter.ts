/** BullMQ's limiter: at most `max` job starts in each fixed window of `duration` ms, across every worker. */
export interface RowLimiter {
  max: number;
  duration: number;
}

/**
 * The limiter for a connection whose service allows `perSecond` requests in any second. BullMQ counts
 * starts in fixed windows, so a sliding second can span parts of several windows: a burst at the end of
 * one and at the start of the next both count. A second overlaps at most ceil(1000 / duration) + 1
 * windows, so of the windows whose worst second stays within the rate, this takes the one that lets the
 * most starts through a second (rates are rounded down to whole requests). `spanMs` above 1000 keeps
 * any span that long within the rate: room for requests that reach the service later than their start.
 */
export function rowLimiter(perSecond: number, spanMs = 1000): RowLimiter {
  const rate = Math.floor(perSecond);
  if (!Number.isFinite(perSecond) || rate < 2)
    throw new Error(`A queue's rate limit must be at least 2 requests a second (given ${perSecond}).`);
  let best: RowLimiter = { max: 1, duration: 1000 };
  for (let duration = 1; duration <= 1000; duration += 1) {
    const max = Math.floor(rate / (Math.ceil(spanMs / duration) + 1));
    if (max >= 1 && max / duration > best.max / best.duration) best = { max, duration };
  }
  return best;
}

/** The most starts a limiter lets into any one second, wherever the second falls. */
export const mostInAnySecond = (limiter: RowLimiter): number => limiter.max * (Math.ceil(1000 / limiter.duration) + 1);
