import { isFinalPhase, type JobView } from '../common/bridge';
import type { StudioLink } from './studio-link';

/**
 * Follows one job through the studio's `jobs.changed` events (the same ones its Library shows) until it
 * ends, and answers how it ended; `onChange` sees every change on the way. An end before the wait began
 * is read back once. Ends early when the studio performing it is gone (its reason) or `signal` aborts.
 */
export async function waitForJob(
  studio: StudioLink,
  id: string,
  options: { onChange?: (job: JobView) => void; signal?: AbortSignal } = {},
): Promise<JobView> {
  let done: (job: JobView) => void = () => undefined;
  const ended = new Promise<JobView>((resolve) => (done = resolve));
  const seen = (job: JobView) => {
    if (job.id !== id) return;
    options.onChange?.(job);
    if (isFinalPhase(job.phase)) done(job);
  };
  const stop = studio.on('jobs.changed', seen);
  const { signal } = options;
  const aborted = new Promise<never>((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    const now = await Promise.race([studio.call('jobs.get', id), studio.lost, aborted]);
    if (isFinalPhase(now.phase)) return now;
    return await Promise.race([ended, studio.lost, aborted]);
  } finally {
    stop();
  }
}
