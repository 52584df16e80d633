// A row engine lists the ledger on every step: an ended job's view is made once per version of its
// record, while a job under way is seen with its progress as of now and its polls as counted.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '@common/bridge/jobs';
import { jobViewOf } from '../../../electron/services/jobs/job-view';
import { completedJob } from '../downloads/job-fixture';

/** A job in `phase` (the downloads tests' completed job, its phase changed). */
const record = (phase: JobRecord['phase'], change: Partial<JobRecord> = {}): JobRecord =>
  completedJob('j1', 'https://files.test/a.mp3', { phase, polls: 0, ...change });

describe('the view of a job', () => {
  it('is made once for an ended job, and again when its record is replaced', () => {
    const done = record('completed', { resultUrl: 'https://files.test/a.mp3' });
    const first = jobViewOf(done, 10);
    expect(jobViewOf(done, 20)).toBe(first);
    const charged = { ...done, chargedCredits: 3 };
    expect(jobViewOf(charged, 30)).toMatchObject({ chargedCredits: 3, resultUrl: 'https://files.test/a.mp3' });
  });

  it('follows the clock and the polls counted in place for a job under way', () => {
    const running = record('processing', { updatedAt: 0 });
    const early = jobViewOf(running, 1_000).progress;
    running.polls += 1;
    const later = jobViewOf(running, 60_000);
    expect(later.progress).toBeGreaterThan(early);
    expect(later.polls).toBe(1);
    const queued = record('queued');
    jobViewOf(queued, 0);
    queued.polls += 1;
    expect(jobViewOf(queued, 0).polls).toBe(1);
  });
});
