import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { DownloadView, JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { extendSelection } from '@/views/library/selection';
import { mountLibraryWith } from './fake-api';

const now = Date.now();
const HOUR = 3600_000;
function job(id: string, over: Partial<JobView> = {}): JobView {
  return {
    id, kind: 'tts', phase: 'completed', remoteId: `r-${id}`, connectionId: 'sandbox', connectionName: 'Sandbox', projectId: 'p1',
    summary: `Speech ${id}`, request: {}, createdAt: now - HOUR, finishedAt: now - HOUR,
    expiresAt: now + 100 * HOUR, remoteStatus: 3, resultUrl: `https://x.test/${id}.mp3`, costEstimate: null,
    chargedCredits: null, error: null, answer: null, polls: 1, purpose: { type: 'plain' }, progress: 1, ...over,
  };
}
function download(jobId: string, over: Partial<DownloadView>): DownloadView {
  return {
    id: `d-${jobId}`, jobId, url: 'u', folder: '/out', relativeName: `${jobId}.mp3`, state: 'queued', reason: null, bytes: 0, totalBytes: null,
    etag: null, lastModified: null, attempts: 0, savedPath: null, origin: 'library', batchId: null, createdAt: now, updatedAt: now,
    bytesPerSecond: null, secondsLeft: null, ...over,
  };
}

function mountLibrary(jobs: JobView[], downloads: DownloadView[]) {
  return mountLibraryWith({
    'jobs.list': () => jobs,
    // Any project the library keeps, recent or not; an unknown id stays unnamed.
    'projects.names': (ids: unknown) => Object.fromEntries((ids as string[]).map((id) => [id, id === 'p1' ? 'Spring launch' : null])),
    'downloads.list': () => downloads,
    'downloads.totals': () => ({ active: 2, bytes: 5_000_000, totalBytes: 10_000_000, unknownSizes: 1, pausedReason: null }),
    'downloads.preferences': () => ({ folder: '/home/me/Videos', template: '{project} {id}', canChooseFolder: false, canShowInFolder: false }),
    'downloads.checkFolder': (folder: unknown) => ({ folder, ok: folder === '/home/me/Videos', message: folder === '/home/me/Videos' ? 'Files will be saved in /home/me/Videos.' : 'Cannot save there.' }),
    'downloads.start': (request: unknown) => ({ queued: [], skipped: [], request }),
  });
}

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

const row = (id: string) => document.querySelector(`[data-job-id="${id}"]`)!;

describe('Library downloads', () => {
  it('names jobs by project, shows download state, flags results expiring within a day, blocks expired ones', async () => {
    mountLibrary(
      [
        job('a'),
        job('b', { expiresAt: now + 5 * HOUR }),
        job('c', { expiresAt: now - HOUR }),
        job('d', { phase: 'failed', resultUrl: null }),
      ],
      [
        download('a', { state: 'downloading', bytes: 4_200_000, totalBytes: 10_000_000, bytesPerSecond: 2_097_152, secondsLeft: 3 }),
        download('b', { state: 'saved', savedPath: '/out/b.mp3' }),
        download('c', { state: 'failed', reason: 'The link no longer works (HTTP 404).' }),
      ],
    );
    await flushPromises();
    expect(row('a').textContent).toContain('Spring launch');
    expect(row('a').textContent).toContain('42% · 2.0 MB/s · 3 s left');
    expect(row('b').textContent).toContain('/out/b.mp3');
    expect(row('b').querySelector('[data-expiring]')?.textContent).toMatch(/5 h left|4 h 59 min left/);
    expect(row('a').querySelector('[data-expiring]')).toBeNull();
    expect(row('c').textContent).toContain('Expired');
    expect(row('c').textContent).toContain('Failed: The link no longer works');
    const open = [...row('c').querySelectorAll('button')].find((b) => b.textContent === 'Open')!;
    expect(open.disabled).toBe(true);
    expect(open.title).toMatch(/7 days/);
    // A failed job has nothing to lose: no countdown.
    expect(row('d').textContent).not.toMatch(/left|Expired/);
    expect(document.querySelector('[data-testid="download-total"]')?.textContent).toContain('Downloading 2 files: 4.8 MB of 9.5 MB and 1 of a size not known yet');
  }, 20_000);

  it('selects with clicks, Shift-click ranges and select-all of the current filter, then downloads to the typed folder', async () => {
    const { fake } = mountLibrary([job('a', { createdAt: now - 1 }), job('b', { createdAt: now - 2 }), job('c', { createdAt: now - 3 }), job('d', { createdAt: now - 4 })], []);
    await flushPromises();
    const box = (id: string) => row(id).querySelector('.n-checkbox') as HTMLElement;
    box('a').click();
    await flushPromises();
    window.dispatchEvent(new MouseEvent('mousedown', { shiftKey: true }));
    box('c').click();
    await flushPromises();
    window.dispatchEvent(new MouseEvent('mousedown', { shiftKey: false }));
    const button = document.querySelector('[data-testid="download-selected"]') as HTMLButtonElement;
    expect(button.textContent).toContain('(3)');
    (document.querySelector('thead .n-checkbox') as HTMLElement).click();
    await flushPromises();
    expect(button.textContent).toContain('(4)');

    button.click();
    // The dialog opens once the archive's folder has been asked for.
    const dialog = await vi.waitFor(() => {
      const found = document.querySelector('[data-testid="download-dialog"]');
      expect(found?.textContent).toContain('Files will be saved in /home/me/Videos.');
      return found!;
    }, { timeout: 10_000 });
    const start = [...dialog.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Download')!;
    start.click();
    await flushPromises();
    const sent = fake.calls.find((c) => c.channel === 'downloads.start');
    expect(sent?.args[0]).toEqual({ jobIds: ['a', 'b', 'c', 'd'], folder: '/home/me/Videos', template: '{project} {id}' });
    // Mounting a whole workspace and a dialog takes seconds on a loaded machine (1.5 s alone).
  }, 20_000);

  it('extends a selection over a range and leaves the rest as it was', () => {
    expect(extendSelection(['x'], ['a', 'b', 'c', 'd'], 'b', 'd', true)).toEqual(['b', 'c', 'd', 'x']);
    expect(extendSelection(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd'], 'c', 'a', false)).toEqual(['d']);
  });
});
