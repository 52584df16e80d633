// "Export CSV" and a large selection's preview, as the page does them since the host walks the jobs:
// the export sends the filter and order shown (no jobs gathered in the page), says how far the host
// is, and fetches the web host's file; a selection's preview names its first jobs and says how many
// more there are, rather than counting only the names it was sent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { completedJobView } from '../jobs/job-host';
import { mountLibraryWith } from './fake-api';
import { until, whenDefined } from '../../wait';

const now = Date.now();
const job = (n: number): JobView => completedJobView(`job-${n}`, { createdAt: now - n }, now);
const JOBS = Array.from({ length: 30 }, (_, n) => job(n));

function mountLibrary(more: Record<string, (...args: unknown[]) => unknown>) {
  return mountLibraryWith({
    'jobs.list': () => JOBS,
    'projects.names': () => ({}),
    'downloads.list': () => [],
    'downloads.check': () => [],
    'downloads.totals': () => ({ active: 0, bytes: 0, totalBytes: 0, unknownSizes: 0, pausedReason: null }),
    'downloads.preferences': () => ({
      folder: '/home/me/Videos',
      template: '{id}',
      canChooseFolder: false,
      canShowInFolder: false,
    }),
    'downloads.checkFolder': (folder: unknown) => ({ folder, ok: true, message: 'Files will be saved there.' }),
    'downloads.media': () => [],
    ...more,
  });
}

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

const exportButton = () => document.querySelector('[data-testid="export-manifest"]') as HTMLButtonElement;

describe('the Library export and a large selection', () => {
  it('asks the host to write the jobs shown, says its progress, and fetches the file it offers', async () => {
    let answer!: (value: unknown) => void;
    const { fake } = mountLibrary({
      'downloads.exportCsv': () => new Promise((resolve) => (answer = resolve)),
    });
    await flushPromises();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    exportButton().click();
    await until('the export to be asked for', () => fake.calls.some((c) => c.channel === 'downloads.exportCsv'));
    // The filter and order shown, and nothing else: no job, no id, no path.
    expect(fake.calls.find((c) => c.channel === 'downloads.exportCsv')?.args).toEqual([
      { filter: {}, sort: 'created', descending: true },
    ]);
    expect(fake.calls.some((c) => c.channel === 'jobs.page' && (c.args[0] as { limit: number }).limit > 200)).toBe(
      false,
    );
    fake.push('downloads.exportProgress', { written: 1_500, total: 1_000_000 });
    await whenDefined('the progress', () =>
      document.body.textContent?.includes('Writing the CSV: 1,500 of 1,000,000 jobs…') ? true : null,
    );
    answer({ count: 1_000_000, savedTo: null, url: '/bridge/exports/0123456789abcdef0123456789abcdef' });
    await whenDefined('the end', () =>
      document.body.textContent?.includes('Exported 1,000,000 jobs as shown.') ? true : null,
    );
    expect(clicked).toEqual(['/bridge/exports/0123456789abcdef0123456789abcdef']);
  });

  it('says where the desktop app wrote it, nothing when its dialog was cancelled, and why it failed', async () => {
    const answers: unknown[] = [
      { count: 30, savedTo: '/home/me/library.csv', url: null },
      null,
      new Error('The export failed: no space left on device. Nothing was written to /home/me/library.csv.'),
    ];
    mountLibrary({
      'downloads.exportCsv': () => {
        const next = answers.shift();
        if (next instanceof Error) throw next;
        return next;
      },
    });
    await flushPromises();
    exportButton().click();
    await whenDefined('the first', () =>
      document.body.textContent?.includes('Exported 30 jobs as shown to /home/me/library.csv.') ? true : null,
    );
    exportButton().click();
    await until('the second', () => answers.length === 1);
    await flushPromises();
    exportButton().click();
    await whenDefined('the failure', () =>
      document.body.textContent?.includes('Nothing was written to /home/me/library.csv.') ? true : null,
    );
  });

  it('previews a selection by its first jobs and says how many more the host will name', async () => {
    mountLibrary({
      'downloads.preview': (request: unknown) => ({
        rows: (request as { jobIds: string[] }).jobIds
          .slice(0, 5)
          .map((jobId) => ({ jobId, name: `${jobId}.mp4`, reason: null, bytes: 1_000_000 })),
        more: true,
      }),
    });
    await flushPromises();
    (document.querySelector('thead .n-checkbox') as HTMLElement).click();
    await flushPromises();
    (document.querySelector('[data-testid="download-selected"]') as HTMLButtonElement).click();
    const preview = await whenDefined('the preview', () => document.querySelector('[data-testid="download-preview"]'));
    await until(
      'its words',
      () => preview.textContent?.includes('The first 5 of 30 jobs give 5 files: 4.8 MB.') ?? false,
    );
    expect(preview.textContent).toContain('… and 26 more jobs');
  });
});
