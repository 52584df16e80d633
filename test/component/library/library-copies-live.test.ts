// The open Library follows the record of copies as the host finds the disk changed (issue 66): each
// change arrives as a `downloads.changed` event, with no reload, and the rows and "Not saved" follow it;
// a copy on a drive that is gone says so, and a row waiting for that drive says it short.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { driveMissingReason, type DownloadView, type JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { completedJobView } from '../jobs/job-host';
import { downloadView } from './download-view';
import { mountLibraryWith } from './fake-api';
import { until } from '../../wait';
import { fakeCopies } from './fake-copies';

const now = Date.now();

const job = (id: string): JobView =>
  completedJobView(id, { kind: 'avatar-video', summary: `Clip ${id}`, resultUrl: `https://x.test/${id}.mp4` }, now);

const saved = (jobId: string, over: Partial<DownloadView> = {}): DownloadView =>
  downloadView(
    jobId,
    {
      url: `https://x.test/${jobId}.mp4`,
      folder: '/media/drive/clips',
      relativeName: `${jobId}.mp4`,
      state: 'saved',
      bytes: 100,
      totalBytes: 100,
      savedPath: `/media/drive/clips/${jobId}.mp4`,
      sha256: 'x',
      mtimeMs: 1,
      verifiedAt: now,
      ...over,
    },
    now,
  );

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

const cell = (id: string) => document.querySelector(`[data-job-id="${id}"] [data-download-state]`);
const shownRows = () => [...document.querySelectorAll('tr[data-job-id]')].map((r) => r.getAttribute('data-job-id'));

describe('the Library follows the disk', () => {
  it('shows copies found missing, changed or on a missing drive as the events come, and "Not saved" lists them', async () => {
    const ids = ['gone', 'edited', 'offline', 'waiting', 'kept'];
    const copies = ids.map((id) => saved(id));
    const { fake } = mountLibraryWith({
      'jobs.list': () => ids.map(job),
      'projects.names': () => ({}),
      ...fakeCopies(copies),
      'downloads.totals': () => ({ active: 0, bytes: 0, totalBytes: 0, unknownSizes: 0, pausedReason: null }),
      'downloads.preferences': () => ({
        folder: null,
        template: '{id}',
        canChooseFolder: false,
        canShowInFolder: false,
      }),
      'downloads.media': () => [],
    });
    await until('every row saved', () => ids.every((id) => cell(id)?.textContent?.startsWith('Saved')));

    const later = now + 1000;
    const drive = driveMissingReason('/media/drive/clips');
    fake.push(
      'downloads.changed',
      saved('gone', { state: 'missing', reason: 'The saved copy is no longer at …', updatedAt: later }),
    );
    fake.push(
      'downloads.changed',
      saved('edited', { state: 'changed', reason: 'Not the bytes saved.', updatedAt: later }),
    );
    fake.push('downloads.changed', saved('offline', { state: 'missing', reason: drive, updatedAt: later }));
    fake.push(
      'downloads.changed',
      saved('waiting', { state: 'queued', reason: drive, refetchedAt: later, savedPath: null, updatedAt: later }),
    );

    await until('the deleted copy shown missing', () =>
      /^Copy missing · on the service: /.test(cell('gone')?.textContent ?? ''),
    );
    expect(cell('edited')?.textContent).toMatch(/^Copy changed on disk · on the service: /);
    expect(cell('offline')?.textContent).toMatch(/^Drive missing: \/media\/drive\/clips · on the service: /);
    expect(cell('offline')?.getAttribute('data-download-state')).toBe('lost');
    // The banner says the whole of it; the row names it short.
    expect(cell('waiting')?.querySelector('.download-text')?.textContent).toBe(
      'Copy missing, fetching again · Waiting for its drive',
    );
    expect(cell('kept')?.textContent).toMatch(/^Saved/);

    (document.querySelector('[data-testid="filter-not-saved"]') as HTMLElement).click();
    await flushPromises();
    await until('"Not saved" to list the four', () => shownRows().length === 4);
    expect(shownRows().sort()).toEqual(['edited', 'gone', 'offline', 'waiting']);
  }, 120_000);
});
