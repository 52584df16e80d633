import type { DownloadView } from '../../common/bridge/downloads';

/**
 * A run of downloads has ended: the user's own batches always say so; the archive speaks for a
 * catch-up of several results or for any failure (one result archived at its end stays quiet: the
 * Library shows it); the command line prints its own, and a campaign's or a batch's save (no run id)
 * is told by its campaign or batch. `told` keeps the runs already told.
 */
export function runEnded(
  view: DownloadView,
  all: readonly DownloadView[],
  told: Set<string>,
  notify: ((title: string, body: string, ok: boolean) => void) | undefined,
): void {
  if (!view.batchId || view.origin === 'cli') return;
  const batch = all.filter((d) => d.batchId === view.batchId);
  if (batch.some((d) => d.state === 'queued' || d.state === 'downloading' || d.state === 'paused')) return;
  const saved = batch.filter((d) => d.state === 'saved').length;
  const failed = batch.filter((d) => d.state === 'failed').length;
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
