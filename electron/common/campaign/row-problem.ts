import type { CopyState } from '../bridge/download-words';
import type { CampaignRowRecord } from './record';

/**
 * A row the "Show only rows with problems" filter keeps: one the check will not send, one that failed or
 * is held with a reason, and a done one whose file is missing or changed on disk (among thousands of
 * rows, the few that need the user). The host filters a campaign's rows by it, the page a batch's.
 */
export function rowHasProblem(row: Pick<CampaignRowRecord, 'state' | 'problems'>, copy: CopyState | null): boolean {
  if (row.state === 'invalid' || row.state === 'failed' || copy === 'missing' || copy === 'changed') return true;
  return row.state !== 'done' && row.state !== 'cancelled' && row.problems.length > 0;
}
