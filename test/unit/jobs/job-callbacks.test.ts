import { describe, expect, it } from 'vitest';
import { CallbackPolling } from '../../../electron/services/jobs/callback-follow';
import { JobCallbacks } from '../../../electron/services/jobs/job-callbacks';
import type { PollingStrategy, TimedJob } from '../../../electron/services/jobs/polling-strategy';

describe('callback addresses of jobs', () => {
  it('gives each job its own token in its kind field, leaves a body that names its own address alone', () => {
    const callbacks = new JobCallbacks({ url: 'https://hooks.example/w1/' });
    const a = callbacks.attach({ id: 'a', kind: 'tts', connectionId: 'c' }, { input_text: 'x' });
    const b = callbacks.attach({ id: 'b', kind: 'character-swap', connectionId: 'c' }, { image: 'i', video: 'v' });
    expect(a.webhookUrl).toMatch(/^https:\/\/hooks\.example\/w1\/[A-Za-z0-9_-]{43}$/);
    expect(b.webhookurl).toMatch(/^https:\/\/hooks\.example\/w1\/[A-Za-z0-9_-]{43}$/);
    expect(b.webhookUrl).toBeUndefined();
    const tokenOf = (url: unknown) => String(url).split('/').pop() as string;
    expect(callbacks.lookup(tokenOf(a.webhookUrl))).toEqual({ jobId: 'a', connectionId: 'c' });
    expect(callbacks.lookup(tokenOf(b.webhookurl))).toEqual({ jobId: 'b', connectionId: 'c' });
    expect(tokenOf(a.webhookUrl)).not.toBe(tokenOf(b.webhookurl));
    const own = { input_text: 'x', webhookUrl: 'https://mine.example/hook' };
    expect(callbacks.attach({ id: 'c', kind: 'tts', connectionId: 'c' }, own)).toBe(own);
    expect(callbacks.has('c')).toBe(false);
  });

  it("knows an ended job's token for 15 minutes, then forgets it", () => {
    let now = 0;
    const callbacks = new JobCallbacks({ url: 'https://h.example/p', now: () => now });
    const token = (id: string) =>
      String(callbacks.attach({ id, kind: 'tts', connectionId: 'c' }, {}).webhookUrl)
        .split('/')
        .pop() as string;
    const a = token('a');
    callbacks.ended('a');
    now = 14 * 60_000;
    token('b');
    expect(callbacks.lookup(a)?.jobId).toBe('a');
    now = 16 * 60_000;
    const c = token('c');
    expect(callbacks.lookup(a)).toBeUndefined();
    expect(callbacks.has('a')).toBe(false);
    expect(callbacks.lookup(c)?.jobId).toBe('c');
  });
});

describe('polling as the fallback of callbacks', () => {
  const job: TimedJob = { id: 'j', kind: 'tts', connectionId: 'c', createdAt: 1_000, sentAt: 2_000, request: {} };
  const inner = (latest: number | undefined): PollingStrategy & { expected(): { latest: number } | undefined } => ({
    follow: () => [],
    finished: () => [],
    hint: (_job, now) => ({ at: now, stepMs: 250 }),
    expected: () => (latest === undefined ? undefined : { latest }),
  });

  it('sleeps until the callback is overdue: half as long again as the longest usual, plus 3 s', () => {
    const polling = new CallbackPolling(inner(4_000), () => true);
    expect(polling.hint(job, 2_000)).toEqual({ at: 2_000 + 6_000 + 3_000 });
    // Overdue: polled as any other job.
    expect(polling.hint(job, 11_000)).toEqual({ at: 11_000, stepMs: 250 });
  });

  it("gives the callback the grace it was told to: a slow proxy's or a busy machine's", () => {
    const polling = new CallbackPolling(inner(4_000), () => true, undefined, 45_000);
    expect(polling.hint(job, 2_000)).toEqual({ at: 2_000 + 6_000 + 45_000 });
    // A grace longer than the wait for an unknown kind stands for it too.
    expect(new CallbackPolling(inner(undefined), () => true, 60_000, 90_000).hint(job, 2_000)).toEqual({ at: 92_000 });
  });

  it('waits a minute while its kind is unknown, and leaves jobs without a callback to the usual hints', () => {
    expect(new CallbackPolling(inner(undefined), () => true).hint(job, 2_000)).toEqual({ at: 62_000 });
    expect(new CallbackPolling(inner(4_000), () => false).hint(job, 2_000)).toEqual({ at: 2_000, stepMs: 250 });
  });
});
