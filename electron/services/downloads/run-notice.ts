import type { DownloadView } from '../../common/bridge/downloads';
import type { StateCounts } from './queue-totals';

/**
 * A run of downloads has ended: the user's own batches always say so; the archive speaks for a
 * catch-up of several results or for any failure (one result archived at its end stays quiet: the
 * Library shows it); the command line prints its own, and a campaign's or a batch's save (no run id)
 * is told by its campaign or batch. `told` keeps the runs already told.
 */
export function runEnded(
  view: DownloadView,
  /** How many of the run's downloads are in each state (counted, not viewed: a run can be 10,000 files). */
  countRun: (batchId: string) => StateCounts,
  told: Set<string>,
  notify: ((title: string, body: string, ok: boolean) => void) | undefined,
): void {
  if (!view.batchId || view.origin === 'cli') return;
  const count = countRun(view.batchId);
  if (count.queued || count.downloading || count.paused) return;
  const saved = count.saved ?? 0;
  const failed = count.failed ?? 0;
  if (saved + failed === 0 || told.has(view.batchId)) return;
  // Two files ending together both see the batch finished: it is told once.
  told.add(view.batchId);
  const archive = view.origin === 'archive';
  if (archive && failed === 0 && saved < 2) return;
  const where = view.folder;
  const what = archive ? 'archive cop' : 'download';
  const plural = (n: number) => (archive ? (n === 1 ? 'y' : 'ies') : n === 1 ? '' : 's');
  notify?.(
    failed === 0 ? `${saved} ${what}${plural(saved)} finished` : `${failed} ${what}${plural(failed)} failed`,
    failed === 0 ? `Saved in ${where}.` : `${saved} saved in ${where}; ${failed} failed (the Library shows why).`,
    failed === 0,
  );
}
