// The Library's CC burns the captions into the saved copy the user picked: a result saved by the user
// and kept by the archive too has two copies, and the burn must start from the one clicked.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { DownloadView, JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { downloadView } from './download-view';
import { mountLibraryWith } from './fake-api';
import { until, whenDefined } from '../../wait';
import { fakeCopies } from './fake-copies';

const now = Date.now();
const HOUR = 3600_000;
const video: JobView = {
  id: 'v',
  kind: 'avatar-video',
  phase: 'completed',
  remoteId: 'r-v',
  connectionId: 'sandbox',
  connectionName: 'Sandbox',
  projectId: 'p1',
  summary: 'Launch video',
  request: {},
  createdAt: now - HOUR,
  finishedAt: now - HOUR,
  expiresAt: now + 100 * HOUR,
  remoteStatus: 3,
  resultUrl: 'https://x.test/v.mp4',
  costEstimate: null,
  chargedCredits: null,
  error: null,
  answer: null,
  polls: 1,
  purpose: { type: 'plain' },
  progress: 1,
};
const copy = (id: string, origin: DownloadView['origin'], savedPath: string): DownloadView =>
  downloadView(
    'v',
    {
      id,
      folder: savedPath.slice(0, savedPath.lastIndexOf('/')),
      relativeName: savedPath.slice(savedPath.lastIndexOf('/') + 1),
      state: 'saved',
      bytes: 10,
      totalBytes: 10,
      attempts: 1,
      savedPath,
      origin,
    },
    now,
  );

function mount(downloads: DownloadView[]) {
  return mountLibraryWith({
    ...fakeCopies(downloads),
    'jobs.list': () => [video],
    'projects.names': () => ({ p1: 'Launch' }),
    'downloads.totals': () => ({ active: 0, bytes: 0, totalBytes: 0, unknownSizes: 0, pausedReason: null }),
    'downloads.preferences': () => ({
      folder: '/home/me/Videos',
      template: '{project}',
      canChooseFolder: false,
      canShowInFolder: false,
    }),
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
    'captions.burn': () => ({ burnId: 'b1' }),
  });
}

const ccButton = () =>
  document.querySelector<HTMLButtonElement>('[data-job-id="v"] [aria-label="Burn captions into a copy"]');
const burned = (fake: ReturnType<typeof mount>['fake']) =>
  fake.calls.filter((c) => c.channel === 'captions.burn').map((c) => c.args[0]);

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

describe('Library: burning captions into a saved copy', () => {
  // Fails when the CC burns the job's first saved download whichever copy is picked (the archive's here).
  it('with two copies on disk, burns the one picked from the list', async () => {
    const { fake } = mount([
      copy('arch', 'archive', '/home/me/Videos/Avatar Studio/Launch.mp4'),
      copy('mine', 'library', '/home/me/Desktop/Launch final.mp4'),
    ]);
    await flushPromises();
    await until('the captions button', () => ccButton() !== null);
    ccButton()!.click();
    const options = await whenDefined('the list of copies to burn into', () => {
      const found = [...document.querySelectorAll('.n-dropdown-option:not(:has(.n-dropdown-option-body--group))')];
      return found.length > 0 ? found : null;
    });
    // The list says what it is for, above the copies.
    expect(document.querySelector('.n-dropdown-option:has(.n-dropdown-option-body--group)')?.textContent).toBe(
      'Burn the captions into a copy of',
    );
    expect(options).toHaveLength(2);
    // The user's own copy is listed first, the archive's marked as such.
    expect(options.map((o) => o.textContent)).toEqual([
      '/home/me/Desktop/Launch final.mp4',
      '/home/me/Videos/Avatar Studio/Launch.mp4 (archive copy)',
    ]);
    (options[0].querySelector('.n-dropdown-option-body') as HTMLElement).click();
    await until('a burn to be asked for', () => burned(fake).length > 0);
    expect(burned(fake)).toEqual([{ downloadId: 'mine' }]);
  });

  it('with one copy, the button names it and burns it', async () => {
    const { fake } = mount([copy('arch', 'archive', '/home/me/Videos/Avatar Studio/Launch.mp4')]);
    await flushPromises();
    await until('the captions button', () => ccButton() !== null);
    expect(ccButton()!.title).toContain('/home/me/Videos/Avatar Studio/Launch.mp4 (archive copy)');
    ccButton()!.click();
    await until('a burn to be asked for', () => burned(fake).length > 0);
    expect(burned(fake)).toEqual([{ downloadId: 'arch' }]);
  });
});
