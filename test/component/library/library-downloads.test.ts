import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { DownloadView, JobView } from '@common/bridge';
import type { JobSelection } from '@common/bridge/job-pages';
import { useStudioApi } from '@/bridge';
import { extendSelection } from '@/views/library/selection';
import { completedJobView } from '../jobs/job-host';
import { downloadView } from './download-view';
import { mountLibraryWith } from './fake-api';
import { whenDefined, until } from '../../wait';
import { fakeCopies } from './fake-copies';

const now = Date.now();
const HOUR = 3600_000;
const job = (id: string, over: Partial<JobView> = {}): JobView =>
  completedJobView(id, { projectId: 'p1', ...over }, now);
const download = (jobId: string, over: Partial<DownloadView>): DownloadView => downloadView(jobId, over, now);

function mountLibrary(
  jobs: JobView[],
  downloads: DownloadView[],
  more: Record<string, (...args: unknown[]) => unknown> = {},
) {
  return mountLibraryWith({
    'downloads.preview': (request: unknown) => ({
      rows: (request as { jobIds: string[] }).jobIds.map((jobId) => ({
        jobId,
        name: `${jobId}.mp3`,
        reason: null,
        bytes: jobId === 'a' ? 2_000_000 : null,
      })),
      more: false,
    }),
    'jobs.list': () => jobs,
    // Any project the library keeps, recent or not; an unknown id stays unnamed.
    'projects.names': (ids: unknown) =>
      Object.fromEntries((ids as string[]).map((id) => [id, id === 'p1' ? 'Spring launch' : null])),
    ...fakeCopies(downloads),
    'downloads.totals': () => ({
      active: 2,
      bytes: 5_000_000,
      totalBytes: 10_000_000,
      unknownSizes: 1,
      pausedReason: null,
      waiting: 0,
      files: 5,
      saved: 3,
      fraction: 0.7,
    }),
    'downloads.preferences': () => ({
      folder: '/home/me/Videos',
      template: '{project} {id}',
      canChooseFolder: false,
      canShowInFolder: false,
    }),
    'downloads.checkFolder': (folder: unknown) => ({
      folder,
      ok: folder === '/home/me/Videos',
      message: folder === '/home/me/Videos' ? 'Files will be saved in /home/me/Videos.' : 'Cannot save there.',
    }),
    'downloads.start': (request: unknown) => ({ queued: [], skipped: [], already: [], copies: 0, request }),
    'downloads.media': (ids: unknown) =>
      (ids as string[]).map((jobId) => ({
        jobId,
        thumbnail: null,
        durationMs: null,
        bytes: null,
        source: 'none',
        pending: false,
        playUrl: null,
      })),
    ...more,
  });
}

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

/** Download… opens the dialog once the remembered folder has been checked. */
async function openDialog(button: HTMLButtonElement): Promise<Element> {
  button.click();
  return whenDefined('the download dialog with its folder', () => {
    const found = document.querySelector('[data-testid="download-dialog"]');
    return found?.textContent?.includes('Files will be saved in /home/me/Videos.') ? found : null;
  });
}

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
        download('a', {
          state: 'downloading',
          bytes: 4_200_000,
          totalBytes: 10_000_000,
          bytesPerSecond: 2_097_152,
          secondsLeft: 3,
        }),
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
    expect(document.querySelector('[data-testid="download-total"]')?.textContent).toContain(
      'Downloading 2 files: 4.8 MB of 9.5 MB so far; the size of 1 of them is not known yet · 3 of 5 files saved',
    );
  }, 120_000);

  it('selects with clicks, Shift-click ranges and select-all of the current filter, then downloads to the typed folder', async () => {
    const { fake } = mountLibrary(
      [
        job('a', { createdAt: now - 1 }),
        job('b', { createdAt: now - 2 }),
        job('c', { createdAt: now - 3 }),
        job('d', { createdAt: now - 4 }),
      ],
      [],
    );
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

    const dialog = await openDialog(button);
    // The names the template gives, and the size the saved copies tell.
    await until(
      'the preview of the names and sizes',
      () => dialog.querySelector('[data-testid="download-preview"]')?.textContent?.includes('4 files:') ?? false,
    );
    expect(dialog.querySelector('[data-testid="download-preview"]')?.textContent).toContain(
      '4 files: 1.9 MB and 3 of a size not known until they download.',
    );
    expect(dialog.querySelector('[data-testid="download-preview"]')?.textContent).toContain('a.mp3');
    const start = [...dialog.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Download')!;
    start.click();
    await flushPromises();
    const sent = fake.calls.find((c) => c.channel === 'downloads.start');
    // Select-all is sent as the filter it was made under, for the host to walk: no list of ids.
    expect(sent?.args[0]).toEqual({
      jobIds: [],
      selection: { filter: {}, sort: 'created', descending: true, except: [] },
      folder: '/home/me/Videos',
      template: '{project} {id}',
    });
    // Mounting a whole workspace and a dialog takes seconds on a loaded machine (1.5 s alone).
  }, 120_000);

  it('sums up every copy of a job: a later failure does not hide a saved copy, a lost copy says so', async () => {
    mountLibrary(
      [
        job('two'),
        job('kept'),
        job('lost', { expiresAt: now + 20 * HOUR }),
        job('none', { expiresAt: now + 20 * HOUR }),
        job('back'),
      ],
      [
        download('two', { id: 'two-1', state: 'saved', savedPath: '/out/two.mp3', createdAt: now - 2 }),
        download('two', { id: 'two-2', state: 'saved', savedPath: '/archive/two.mp3', createdAt: now - 1 }),
        download('kept', { id: 'kept-1', state: 'saved', savedPath: '/out/kept.mp3', createdAt: now - 2 }),
        download('kept', {
          id: 'kept-2',
          state: 'failed',
          reason: 'The server answered HTTP 500.',
          createdAt: now - 1,
        }),
        download('lost', {
          id: 'lost-1',
          state: 'missing',
          savedPath: '/gone/lost.mp3',
          reason: 'The saved copy is no longer at /gone/lost.mp3.',
        }),
        download('back', { id: 'back-1', state: 'downloading', bytes: 50, totalBytes: 100, refetchedAt: now }),
      ],
    );
    await flushPromises();
    const cell = (id: string) => row(id).querySelector('[data-download-state]')!;
    expect(cell('two').textContent).toContain('Saved in 2 places');
    expect(cell('kept').getAttribute('data-download-state')).toBe('saved');
    expect(cell('kept').textContent).not.toContain('Failed');
    expect(cell('lost').textContent).toMatch(/^Copy missing · on the service: (20 h|19 h 59 min) left/);
    expect(cell('none').textContent).toMatch(/^Only on the service: (20 h|19 h 59 min) left/);
    expect(cell('back').textContent).toMatch(/^Copy missing, fetching again · 50%/);
  }, 120_000);

  it('shows thumbnails, lengths and sizes as the host reads them, asks again for a new copy, and previews a video on hover', async () => {
    const still = 'data:image/jpeg;base64,/9j/AAAA';
    const known = { thumbnail: null, durationMs: null, bytes: null, source: 'none', pending: false, playUrl: null };
    const { fake } = mountLibrary(
      [
        job('clip', { kind: 'avatar-video', resultUrl: 'https://x.test/clip.mp4' }),
        job('voice'),
        job('live', { kind: 'lipsync', resultUrl: 'https://x.test/live.mp4' }),
        job('busy', { phase: 'processing', progress: 0.5 }),
      ],
      [
        download('clip', {
          id: 'clip-1',
          state: 'saved',
          savedPath: '/out/clip.mp4',
          bytes: 2_097_152,
          totalBytes: 2_097_152,
          sha256: 'abc',
        }),
      ],
      {
        'downloads.media': (ids: unknown) =>
          (ids as string[]).map((jobId) =>
            jobId === 'clip'
              ? { ...known, jobId, bytes: 2_097_152, source: 'copy', pending: true, playUrl: '/bridge/saved/clip-1' }
              : jobId === 'voice'
                ? { ...known, jobId, durationMs: 65_000, bytes: 48_000, source: 'copy' }
                : { ...known, jobId },
          ),
      },
    );
    await flushPromises();
    const asked = () => fake.calls.filter((c) => c.channel === 'downloads.media').map((c) => c.args[0]);
    // One call for every row drawn; a job still running has nothing to ask about.
    // In the host's order: newest first, then by id (these were made at the same moment).
    expect(asked()).toEqual([['voice', 'live', 'clip']]);
    const cell = (id: string, key: string) => row(id).querySelector(`td[data-col-key="${key}"]`)!;
    expect(row('clip').querySelector('[data-thumb]')?.getAttribute('data-thumb')).toBe('pending');
    expect(cell('clip', 'size').textContent).toBe('2.0 MB');
    expect(cell('clip', 'duration').textContent).toBe('…');
    expect(cell('voice', 'duration').textContent).toBe('1:05');
    expect(row('voice').querySelector('[data-thumb]')?.getAttribute('data-thumb')).toBe('sound');
    expect(cell('live', 'duration').textContent).toBe('—');
    expect(cell('live', 'size').querySelector('[title]')?.getAttribute('title')).toContain('the service does not say');
    expect(cell('busy', 'duration').textContent).toBe('—');

    // The copy has been read: the event brings the still and the length.
    fake.push('downloads.mediaRead', {
      ...known,
      jobId: 'clip',
      thumbnail: still,
      durationMs: 7_400,
      bytes: 2_097_152,
      source: 'copy',
      playUrl: '/bridge/saved/clip-1',
    });
    await flushPromises();
    expect(row('clip').querySelector('img.thumb')?.getAttribute('src')).toBe(still);
    expect(cell('clip', 'duration').textContent).toBe('0:07');

    // A new copy of the live job is saved: it is asked about again.
    fake.push(
      'downloads.changed',
      download('live', { id: 'live-1', state: 'saved', savedPath: '/out/live.mp4', sha256: 'def', updatedAt: now + 1 }),
    );
    // Events are taken in together a moment later, not one by one.
    await until('the new copy of the live job to be asked about', () => asked().length === 2);
    expect(asked()).toEqual([['voice', 'live', 'clip'], ['live']]);

    // Hovering a picture plays the saved copy muted; a job with no copy plays its live link.
    row('clip')
      .querySelector('.thumb-hover')!
      .dispatchEvent(new MouseEvent('mouseenter', { bubbles: true }));
    const video = await whenDefined(
      'the hover preview',
      () => document.querySelector('[data-testid="hover-preview"]') as HTMLVideoElement | null,
    );
    expect(video.getAttribute('src')).toBe('/bridge/saved/clip-1');
    expect(video.muted).toBe(true);
    expect(row('voice').querySelector('.thumb-hover')).toBeNull();
  }, 120_000);

  it('pauses, resumes, cancels and retries single files from their row', async () => {
    const { fake } = mountLibrary(
      [job('run'), job('held'), job('bad')],
      [
        download('run', { id: 'run-1', state: 'downloading', bytes: 10, totalBytes: 100 }),
        download('held', { id: 'held-1', state: 'paused', bytes: 40, totalBytes: 100 }),
        download('bad', { id: 'bad-1', state: 'failed', reason: 'The connection failed.' }),
      ],
      {
        'downloads.pause': (id: unknown) => download('run', { id: id as string, state: 'paused' }),
        'downloads.resume': (id: unknown) => download('x', { id: id as string, state: 'queued' }),
        'downloads.cancel': (id: unknown) => download('x', { id: id as string, state: 'cancelled' }),
      },
    );
    await flushPromises();
    const action = (id: string, name: string) =>
      row(id).querySelector(`[data-transfer-action="${name}"]`) as HTMLButtonElement;
    expect(row('held').textContent).toContain('Paused at 40%');
    action('run', 'pause').click();
    action('held', 'resume').click();
    action('held', 'cancel').click();
    action('bad', 'retry').click();
    await flushPromises();
    expect(
      fake.calls
        .filter((c) => /^downloads\.(pause|resume|cancel)$/.test(c.channel))
        .map((c) => `${c.channel} ${c.args[0]}`),
    ).toEqual([
      'downloads.pause run-1',
      'downloads.resume held-1',
      'downloads.cancel held-1',
      'downloads.resume bad-1',
    ]);
  }, 120_000);

  it('sorts by cost, filters results expiring within 24 h, and acts only on ticked rows the filter shows', async () => {
    const { fake, chosen: walk } = mountLibrary(
      [
        job('cheap', { chargedCredits: 5, createdAt: now - 1 }),
        job('dear', { chargedCredits: 50, createdAt: now - 2, expiresAt: now + 3 * HOUR }),
        job('mid', { chargedCredits: 20, createdAt: now - 3 }),
      ],
      [],
    );
    await flushPromises();
    const order = () => [...document.querySelectorAll('tr[data-job-id]')].map((r) => r.getAttribute('data-job-id'));
    const costHeader = [...document.querySelectorAll('th')].find(
      (th) => th.textContent?.trim() === 'Cost',
    ) as HTMLElement;
    costHeader.click();
    await flushPromises();
    expect(order()).toEqual(['dear', 'mid', 'cheap']);
    costHeader.click();
    await flushPromises();
    expect(order()).toEqual(['cheap', 'mid', 'dear']);

    (row('cheap').querySelector('.n-checkbox') as HTMLElement).click();
    await flushPromises();
    (row('dear').querySelector('.n-checkbox') as HTMLElement).click();
    await flushPromises();
    (document.querySelector('[data-testid="filter-expiring"]') as HTMLElement).click();
    await flushPromises();
    expect(order()).toEqual(['dear']);
    const button = document.querySelector('[data-testid="download-selected"]') as HTMLButtonElement;
    expect(button.textContent).toContain('(1)');
    expect(button.title).toMatch(/1 ticked job is hidden by the filter and not included/);
    const dialog = await openDialog(button);
    [...dialog.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Download')!.click();
    await flushPromises();
    // The ticks go with the filter shown, so the host leaves out the one it hides.
    const sent = fake.calls.find((c) => c.channel === 'downloads.start')?.args[0] as {
      jobIds: string[];
      selection: JobSelection;
    };
    expect(sent.selection.filter).toEqual({ expiringWithinMs: 24 * HOUR, ids: ['cheap', 'dear'] });
    expect(await walk(sent)).toEqual(['dear']);
  }, 120_000);

  it('renames the saved files of the ticked jobs with the template, without downloading', async () => {
    const { fake } = mountLibrary([job('a')], [download('a', { state: 'saved', savedPath: '/out/a.mp3' })], {
      'downloads.rename': () => ({ moved: 1, skipped: 0, reasons: [] }),
    });
    await flushPromises();
    (row('a').querySelector('.n-checkbox') as HTMLElement).click();
    await flushPromises();
    const dialog = await openDialog(document.querySelector('[data-testid="download-selected"]') as HTMLButtonElement);
    (dialog.querySelector('[data-testid="rename-saved"]') as HTMLButtonElement).click();
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'downloads.rename').map((c) => c.args[0])).toEqual([
      // Ticked rows go as a selection narrowed by the filter shown; the host walks it to ids.
      { jobIds: [], selection: { filter: { ids: ['a'] } }, template: '{project} {id}' },
    ]);
    expect(fake.calls.some((c) => c.channel === 'downloads.start')).toBe(false);
  }, 120_000);

  it('opens the verified saved copy of an expired result', async () => {
    const opened: string[] = [];
    vi.spyOn(window, 'open').mockImplementation((url) => void opened.push(String(url)) as never);
    const { fake } = mountLibrary(
      [job('old', { expiresAt: now - HOUR })],
      [download('old', { id: 'old-1', state: 'saved', savedPath: '/out/old.mp3' })],
      { 'downloads.openCopy': (id: unknown) => ({ url: `/bridge/saved/${id as string}` }) },
    );
    await flushPromises();
    const open = [...row('old').querySelectorAll('button')].find((b) => b.textContent === 'Open')!;
    expect(open.disabled).toBe(false);
    open.click();
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'downloads.openCopy').map((c) => c.args[0])).toEqual(['old-1']);
    expect(opened).toEqual(['/bridge/saved/old-1']);
    vi.restoreAllMocks();
  }, 120_000);

  it('extends a selection over a range and leaves the rest as it was', () => {
    expect(extendSelection(['x'], ['a', 'b', 'c', 'd'], 'b', 'd', true)).toEqual(['b', 'c', 'd', 'x']);
    expect(extendSelection(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd'], 'c', 'a', false)).toEqual(['d']);
  });
});
