import { describe, expect, it } from 'vitest';
import { ProgressAggregator } from '../../../electron/services/system/progress';

describe('one taskbar progress bar for jobs, renders and downloads', () => {
  it('shows the mean of every source still working, and clears only when all are done', () => {
    const shown: (number | null)[] = [];
    const bar = new ProgressAggregator((f) => shown.push(f));
    const jobs = bar.source('jobs');
    const renders = bar.source('renders');
    jobs.set(0.2);
    renders.set(0.8);
    // A finished preview must not clear the bar while jobs still run.
    renders.set(null);
    expect(shown).toEqual([0.2, 0.5, 0.2]);
    jobs.set(1.5);
    jobs.set(null);
    expect(shown.slice(3)).toEqual([1, null]);
  });
});
