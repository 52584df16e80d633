// What the Campaigns workspace shows, worked out without Vue: labels, progress, the table's edits and
// which actions a row offers. The host owns every campaign; these only read what it reports.
import type { CampaignCheckView, CampaignSummary } from '@common/bridge/campaigns';
import type { CampaignRowRecord, CampaignRowState, CampaignState } from '@common/campaign/record';
import type { CopyState } from '@common/bridge';
import { campaignTally } from '@common/campaign/progress';
import { donePercent } from '@common/jobs/run-progress';
import { rowsByState, type RowsInState } from '@/queue/queue-status';

export const ROW_STATE_LABELS: Record<CampaignRowState, string> = {
  pending: 'Waiting',
  held: 'Held: does not fit',
  voiceover: 'Voiceover…',
  video: 'Video…',
  download: 'Saving…',
  done: 'Done',
  failed: 'Failed',
  invalid: 'Not sent (check)',
  cancelled: 'Cancelled',
};

/**
 * A row's state as the page names it. On a queued campaign a row sent to the queue keeps its first step's
 * state until its worker reports, while a worker elsewhere makes it: "On the queue" says where it is.
 */
export function rowStateLabel(state: CampaignRowState, queued: boolean): string {
  return queued && (state === 'voiceover' || state === 'video') ? 'On the queue' : ROW_STATE_LABELS[state];
}

/** The order a queued campaign's rows are listed in: the ones under way first, then how the others ended. */
const QUEUED_ROW_ORDER: CampaignRowState[] = [
  'voiceover',
  'video',
  'download',
  'pending',
  'held',
  'done',
  'failed',
  'cancelled',
  'invalid',
];

/** A queued campaign's rows by state, for its queue panel (rows a worker has read "On the queue"). */
export function campaignQueueRows(counts: Record<string, number>): RowsInState[] {
  return rowsByState(counts, QUEUED_ROW_ORDER, (state) => rowStateLabel(state, true));
}

export const CAMPAIGN_STATE_LABELS: Record<CampaignState, string> = {
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  finished: 'Finished',
};

/**
 * How far a campaign is, for the list's bars: done rows among the rows it makes (rows the check refused
 * and cancelled rows are not made; failed rows do not fill the bar). The open campaign's figures, with
 * its pace, time left and projected cost, are campaignRunProgress's.
 */
export function campaignPercent(summary: Pick<CampaignSummary, 'counts'>): number {
  return donePercent(campaignTally(summary.counts));
}

/** Rows of a check that can be sent, those named with a reason, and those held until they fit. */
export function checkTally(check: Pick<CampaignCheckView, 'rows' | 'problems'>): {
  ready: number;
  bad: number;
  held: number;
} {
  if (check.problems.length > 0) return { ready: 0, bad: check.rows.length, held: 0 };
  const bad = check.rows.filter((r) => r.problems.length > 0).length;
  const held = check.rows.filter((r) => r.problems.length === 0 && (r.held ?? []).length > 0).length;
  return { ready: check.rows.length - bad - held, bad, held };
}

/**
 * Rows a start would make or pay for: those that pass, less those whose identical video is in the folder
 * already (kept). Rows that would write over a file are among them until their choice is made.
 */
export function rowsToMake(check: Pick<CampaignCheckView, 'rows' | 'problems' | 'kept'>): number {
  return Math.max(0, checkTally(check).ready - check.kept);
}

/** Cells corrected in the check's table: row (0-based, as text) → variable key → value. */
export type CellEdits = Record<string, Record<string, string>>;

/**
 * The edits with one cell set. A value equal to the file's own (`original`) drops the edit, so putting
 * a cell back leaves nothing marked as changed.
 */
export function withCellEdit(edits: CellEdits, row: number, key: string, value: string, original: string): CellEdits {
  const next: CellEdits = { ...edits };
  const cells = { ...(next[String(row)] ?? {}) };
  if (value.trim() === original.trim()) delete cells[key];
  else cells[key] = value;
  if (Object.keys(cells).length === 0) delete next[String(row)];
  else next[String(row)] = cells;
  return next;
}

export function editedCells(edits: CellEdits): number {
  return Object.values(edits).reduce((sum, cells) => sum + Object.keys(cells).length, 0);
}

export type RowAction = 'retry' | 'regenerate' | 'open' | 'refetch';

/**
 * What a row of a started campaign offers: a failed or cancelled row is made again, a done one
 * regenerated or opened; a done one whose file went missing or changed is fetched again (nothing paid).
 */
export function rowActions(
  row: Pick<CampaignRowRecord, 'state' | 'savedAt'>,
  campaign: CampaignState,
  copy: CopyState | null = null,
): RowAction[] {
  if (row.state === 'done' && (copy === 'missing' || copy === 'changed')) return ['refetch', 'regenerate'];
  if (row.state === 'done') return row.savedAt ? ['open', 'regenerate'] : ['regenerate'];
  if (row.state === 'failed') return ['retry'];
  if (row.state === 'cancelled' && campaign !== 'cancelled') return ['retry'];
  return [];
}

/** A row's values in the template's variable order, for the grid's "who" column. */
export function rowTitle(row: Pick<CampaignRowRecord, 'values'>, variables: ReadonlyArray<{ id: string }>): string {
  return variables
    .map((v) => row.values[v.id])
    .filter(Boolean)
    .slice(0, 2)
    .join(' · ');
}

/**
 * The folder a new campaign's files go to by default: a folder named after the spreadsheet inside the
 * downloads folder, with the separator that folder already uses.
 */
export function defaultOutDir(downloads: string | null, label: string): string {
  if (!downloads) return '';
  const separator = downloads.includes('\\') && !downloads.includes('/') ? '\\' : '/';
  const name =
    label
      .replace(/\.[^.]+$/, '')
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .trim() || 'campaign';
  return `${downloads.replace(/[\\/]+$/, '')}${separator}Campaigns${separator}${name}`;
}

/** The file-name template offered for a template's variables: the row number and the first variable. */
export function defaultFileName(variables: ReadonlyArray<{ name: string }>): string {
  return variables[0] ? `{{row}} - {{${variables[0].name}}}` : '{{row}}';
}

export { rowCopy } from '@common/campaign/row-copy';

export { rowHasProblem } from '@common/campaign/row-problem';
