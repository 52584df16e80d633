import { backoffDelay, realSleep, type BackoffPolicy, type Sleep } from '../client/backoff';
import { describeFailure, isNoSpace, RetryableDownloadError } from './fetch-to-file';

export interface RetryPolicy {
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  sleep?: Sleep;
  random?: () => number;
}

/** How a transfer's attempts ended; `stopped` is a pause, cancel or quit (the entry's state says which). */
export type TransferOutcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'stopped' }
  | { kind: 'disk-full' }
  | { kind: 'failed'; attempts: number; reason: string };

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 30_000, factor: 2, jitter: 0.5 };

/**
 * Runs one transfer until it succeeds, is stopped, finds the disk full or runs out of attempts. Only a
 * network error or a 5xx is tried again, after the server's Retry-After or a growing random wait; a
 * full disk is never retried here, since retrying cannot free space (the queue pauses instead).
 */
export async function transferWithRetries<T>(
  attempt: () => Promise<T>,
  {
    signal,
    attemptsSoFar,
    policy,
    onRetry,
  }: {
    signal: AbortSignal;
    attemptsSoFar: number;
    policy: RetryPolicy;
    onRetry(attempts: number, reason: string): void;
  },
): Promise<TransferOutcome<T>> {
  const maxAttempts = policy.maxAttempts ?? 6;
  for (let attempts = attemptsSoFar + 1; ; attempts += 1) {
    try {
      return { kind: 'done', value: await attempt() };
    } catch (error) {
      if (signal.aborted) return { kind: 'stopped' };
      if (isNoSpace(error)) return { kind: 'disk-full' };
      if (!(error instanceof RetryableDownloadError) || attempts >= maxAttempts)
        return { kind: 'failed', attempts, reason: describeFailure(error) };
      onRetry(attempts, `Retrying: ${error.message}`);
      const delay =
        error.retryAfterMs ??
        backoffDelay(attempts - 1, policy.backoff ?? DEFAULT_BACKOFF, policy.random ?? Math.random);
      await (policy.sleep ?? realSleep)(delay, signal).catch(() => undefined);
      if (signal.aborted) return { kind: 'stopped' };
    }
  }
}
