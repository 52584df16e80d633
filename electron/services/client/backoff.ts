/** Exponential backoff with jitter and a cap, shared by request retries and the job scheduler. */
export interface BackoffPolicy {
  /** Delay before the first retry (attempt 0). */
  baseMs: number;
  /** Upper bound of any delay. */
  capMs: number;
  /** Growth per attempt, e.g. 2. */
  factor: number;
  /** 0..1: share of the delay that is randomised ("equal jitter" at 0.5). */
  jitter: number;
}

export type Random = () => number;

export function backoffDelay(attempt: number, policy: BackoffPolicy, random: Random): number {
  const raw = Math.min(policy.capMs, policy.baseMs * policy.factor ** Math.max(0, attempt));
  const fixed = raw * (1 - policy.jitter);
  return Math.round(fixed + raw * policy.jitter * random());
}

/**
 * Retry-After is either seconds or an HTTP date. Returns milliseconds to wait, or undefined when absent
 * or unreadable. A long value is clamped so a misbehaving server cannot stall the studio for hours.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
  maxMs = 5 * 60_000,
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let ms: number | undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) ms = Math.max(0, date - nowMs);
  }
  return ms === undefined ? undefined : Math.min(ms, maxMs);
}

/** Waits ms or until the signal aborts (then rejects with the signal's reason). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
