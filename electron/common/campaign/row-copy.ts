import { type DownloadView, type LostCopy } from '../bridge/downloads';
import { copyStateOf, type CopyState } from '../bridge/download-words';
import type { CampaignRowRecord } from './record';

/**
 * A done row's file as the one record of copies has it (its entries by the row's link, as checked on
 * disk by whoever read them): the Campaigns page and `campaign status` say "File missing" or "File
 * changed" as the Library does. Null for a row with no file to have.
 */
export function rowCopy(
  row: Pick<CampaignRowRecord, 'state' | 'resultUrl'>,
  downloads: Iterable<Pick<DownloadView, 'url' | 'origin' | 'state'>>,
): CopyState | null {
  if (row.state !== 'done' || !row.resultUrl) return null;
  return copyStateOf([...downloads].filter((d) => d.url === row.resultUrl && d.origin === 'campaign'));
}

/** Each done row's file, and the copy to fetch back where it is lost: what a page of the grid shows. */
export function rowCopies(
  rows: readonly Pick<CampaignRowRecord, 'row' | 'state' | 'resultUrl'>[],
  downloads: readonly DownloadView[],
): Record<string, { state: CopyState; lost: LostCopy | null }> {
  const byLink = new Map<string, DownloadView[]>();
  for (const d of downloads) if (d.origin === 'campaign') byLink.set(d.url, [...(byLink.get(d.url) ?? []), d]);
  const out: Record<string, { state: CopyState; lost: LostCopy | null }> = {};
  for (const row of rows) {
    const state = rowCopy(row, byLink.get(row.resultUrl ?? '') ?? []);
    if (state === null) continue;
    const entry = (byLink.get(row.resultUrl ?? '') ?? [])
      .filter((d) => d.state === state)
      .sort((a, b) => b.updatedAt - a.updatedAt)[0];
    const lost =
      (state === 'missing' || state === 'changed') && entry
        ? { jobId: entry.jobId, downloadId: entry.id, folder: entry.folder, relativeName: entry.relativeName }
        : null;
    out[String(row.row)] = { state, lost };
  }
  return out;
}
