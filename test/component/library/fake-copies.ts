import type { DownloadView } from '@common/bridge';

const underWay = (d: DownloadView) => d.state === 'queued' || d.state === 'downloading' || d.state === 'paused';

/**
 * The host's record of copies over a test's entries, answered as the host answers: `downloads.list`
 * holds only the downloads under way, every other copy is asked for by job, and the check on disk
 * answers counts (a copy it finds lost is news, pushed by the test as `downloads.changed`).
 */
export function fakeCopies(entries: DownloadView[] | (() => DownloadView[])) {
  const all = () => (typeof entries === 'function' ? entries() : entries);
  return {
    'downloads.list': () => all().filter(underWay),
    'downloads.ofJobs': (jobIds: unknown) => all().filter((d) => (jobIds as string[]).includes(d.jobId)),
    'downloads.check': () => ({ checked: all().filter((d) => d.state === 'saved').length, lost: 0 }),
  };
}
