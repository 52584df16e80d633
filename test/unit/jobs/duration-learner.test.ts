import { describe, expect, it } from 'vitest';
import { DurationLearner } from '../../../electron/services/jobs/duration-learner';

const job = (createdAt: number, finishedAt: number | null, over: Partial<{ kind: 'tts' | 'lipsync'; connectionId: string; polls: number }> = {}) => ({
  kind: over.kind ?? ('tts' as const),
  connectionId: over.connectionId ?? 'sandbox',
  createdAt,
  finishedAt,
  remoteId: 'r1',
  polls: over.polls ?? 3,
});

describe('DurationLearner', () => {
  it('gives no hint until five jobs of the same kind and connection finished here', () => {
    const learner = new DurationLearner();
    for (let i = 0; i < 4; i += 1) learner.observe(job(0, 10_000));
    expect(learner.earliestEnd(job(1_000, null))).toBeUndefined();
    learner.observe(job(0, 10_000));
    expect(learner.earliestEnd(job(1_000, null))).toBe(1_000 + 9_000);
    expect(learner.earliestEnd(job(1_000, null, { kind: 'lipsync' }))).toBeUndefined();
    expect(learner.earliestEnd(job(1_000, null, { connectionId: 'other' }))).toBeUndefined();
  });

  it('ignores jobs it never polled and keeps only the most recent durations', () => {
    const learner = new DurationLearner(5, 5);
    for (let i = 0; i < 5; i += 1) learner.observe(job(0, 100_000, { polls: 0 }));
    expect(learner.earliestEnd(job(0, null))).toBeUndefined();
    for (let i = 0; i < 5; i += 1) learner.observe(job(0, 100_000));
    for (let i = 0; i < 5; i += 1) learner.observe(job(0, 20_000));
    expect(learner.earliestEnd(job(0, null))).toBe(18_000);
  });
});
