// Issue 66's smaller Library items: Cancel all asks before it stops many downloads (one click had
// cancelled 227), and a filter that hides every job says what it asked for and how many it hides,
// where the table said "No Data".
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { DownloadView, JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { emptyFilterText } from '@/views/library/filter-words';
import { emptyFilter } from '@/views/library/job-filters';
import { completedJobView } from '../jobs/job-host';
import { downloadView } from './download-view';
import { mountLibraryWith } from './fake-api';
import { until, whenDefined } from '../../wait';
import { fakeCopies } from './fake-copies';

const now = Date.now();

const job = (id: string): JobView => completedJobView(id, {}, now);

const running = (jobId: string): DownloadView =>
  downloadView(jobId, { state: 'downloading', bytes: 10, totalBytes: 100 }, now);

function mountLibrary(jobs: JobView[], downloads: DownloadView[]) {
  return mountLibraryWith({
    'jobs.list': () => jobs,
    'projects.names': () => ({}),
    ...fakeCopies(downloads),
    'downloads.totals': () => ({
      active: downloads.length,
      open: downloads.length,
      bytes: 10 * downloads.length,
      totalBytes: 100 * downloads.length,
      unknownSizes: 0,
      pausedReason: null,
    }),
    'downloads.preferences': () => ({ folder: null, template: '{id}', canChooseFolder: false, canShowInFolder: false }),
    'downloads.media': () => [],
    'downloads.cancelAll': () => downloads.length,
  });
}

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

const button = (text: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === text) as HTMLButtonElement | undefined;

describe('the Library asks and explains', () => {
  it('asks before Cancel all stops many downloads, and cancels only when told to', async () => {
    const { fake } = mountLibrary(['a', 'b', 'c'].map(job), ['a', 'b', 'c'].map(running));
    await flushPromises();
    const cancelAll = await whenDefined('the Cancel all button', () =>
      document.querySelector<HTMLButtonElement>('[data-testid="cancel-all"]'),
    );
    const cancelled = () => fake.calls.filter((c) => c.channel === 'downloads.cancelAll').length;

    cancelAll.click();
    const keep = await whenDefined('the question', () => button('Keep downloading'));
    expect(document.body.textContent).toContain('Cancel 3 downloads?');
    expect(document.body.textContent).toContain('their partly downloaded files are removed');
    keep.click();
    await until('the question to close', () => button('Keep downloading') === undefined);
    await flushPromises();
    expect(cancelled()).toBe(0);

    cancelAll.click();
    (await whenDefined('the question again', () => button('Cancel 3 downloads'))).click();
    await until('Cancel all to be sent', () => cancelled() === 1);
  });

  it('cancels a single download without a question', async () => {
    const { fake } = mountLibrary([job('a')], [running('a')]);
    await flushPromises();
    document.querySelector<HTMLButtonElement>('[data-testid="cancel-all"]')!.click();
    await until('Cancel all to be sent', () => fake.calls.some((c) => c.channel === 'downloads.cancelAll'));
    expect(button('Keep downloading')).toBeUndefined();
  });

  it('says what a filter that hides every job asked for, and shows them all again', async () => {
    const { wrapper } = mountLibrary(['a', 'b'].map(job), []);
    await flushPromises();
    await wrapper.find('input[aria-label="Search jobs"], [aria-label="Search jobs"] input').setValue('zebra');
    await flushPromises();
    const empty = await whenDefined('the empty state', () => document.querySelector('[data-testid="filter-empty"]'));
    expect(empty.textContent).toContain("No jobs match 'zebra' — all 2 jobs are hidden by the filter.");
    expect(document.body.textContent).not.toContain('No Data');
    button('Show all jobs')!.click();
    await until('both jobs to show again', () => document.querySelectorAll('[data-job-id]').length === 2);
  });

  it('names each part of the filter in the words', () => {
    const label = (id: string) => `'${id}'`;
    expect(emptyFilterText({ ...emptyFilter(), notSaved: true, status: 'done' }, 12, label)).toBe(
      'No jobs match: completed, not saved — all 12 jobs are hidden by the filter.',
    );
    expect(emptyFilterText({ ...emptyFilter(), kinds: ['tts'], project: 'Spring' }, 1, label)).toMatch(
      /^No jobs match: .+, in 'Spring' — the 1 job is hidden by the filter\.$/,
    );
    expect(emptyFilterText({ ...emptyFilter(), expiringSoon: true, search: '  x ' }, 3, label)).toBe(
      "No jobs match 'x', expiring in 24 h — all 3 jobs are hidden by the filter.",
    );
  });
});
