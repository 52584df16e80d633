// The Library's download line (DownloadTotals.vue) as the host's totals come: files held by a full disk
// are not shown as downloading, and the bar is the run's share done, not bytes of the files that have a
// size yet (the editor saw "42 KB of 42 KB … 100%" with 3 files stuck on a full disk).
import { afterEach, describe, expect, it } from 'vitest';
import type { DownloadTotals } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { mountLibraryWith } from './fake-api';
import { until } from '../../wait';

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

const full = 'The disk holding /out is full. Downloads to it are paused and their partial files kept.';
const idle: DownloadTotals = {
  active: 0,
  bytes: 0,
  totalBytes: 0,
  unknownSizes: 0,
  pausedReason: null,
  waiting: 0,
  open: 0,
  files: 0,
  saved: 0,
  fraction: 0,
};
const line = () => document.querySelector('[data-testid="download-total"]');
const banner = () => document.querySelector('[data-testid="downloads-paused"]');

describe('the download line', () => {
  it('says nothing downloads while every file waits for room, counts the run, and drops the banner with its cause', async () => {
    const { fake } = mountLibraryWith({
      'jobs.list': () => [],
      'projects.names': () => ({}),
      'downloads.list': () => [],
      'downloads.check': () => [],
      'downloads.totals': () => ({ ...idle, pausedReason: full, waiting: 3, files: 23, saved: 20, fraction: 0.88 }),
      'downloads.preferences': () => ({
        folder: null,
        template: '{id}',
        canChooseFolder: false,
        canShowInFolder: false,
      }),
      'downloads.media': () => [],
    });
    await until('the waiting line', () => line() !== null);
    expect(line()?.textContent).toContain('Nothing is downloading: 3 files wait (see above) · 20 of 23 files saved');
    expect(line()?.textContent).not.toContain('Downloading');
    expect(line()?.querySelector('[role="progressbar"], .n-progress')).toBeNull();
    expect(banner()?.textContent).toContain('is full');

    // Room again: the three go on, the banner goes, and the bar shows the run's share, not 100 %.
    fake.push('downloads.progress', {
      ...idle,
      active: 3,
      bytes: 43_008,
      totalBytes: 43_008,
      unknownSizes: 2,
      files: 23,
      saved: 20,
      fraction: 0.9,
    });
    await until('the downloading line', () => line()?.textContent?.startsWith('Downloading') === true);
    expect(line()?.textContent).toContain('Downloading 3 files: 42 KB of 42 KB so far; the size of 2 of them');
    expect(line()?.textContent).toContain('· 20 of 23 files saved');
    expect(line()?.textContent).toContain('90%');
    expect(banner()).toBeNull();
  }, 120_000);
});
