import { copyStateOf, type CopyState, type DownloadView } from '../bridge/downloads';
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
