import { createHash } from 'node:crypto';
import type { PriceQuote, QuoteItem } from '../../common/bridge/jobs';
import { campaignQuoteItems, campaignRefusal } from '../../common/campaign/price';
import type { CampaignRecord } from '../../common/campaign/record';
import { columnVariables, type CampaignTemplate } from '../../common/campaign/variables';
import type { ProjectKind } from '../../common/composition/document';
import type { PaidConfirmation, SpendingPolicy } from '../../common/jobs/cost-model';
import { StudioError } from '../host/errors';
import { linkBeside, type CampaignCheck } from './campaign-check';
import { rowProject } from './row-project';

export interface NewCampaign {
  id: string;
  label: string;
  template: CampaignTemplate;
  check: Pick<CampaignCheck, 'rows' | 'voiceIds'>;
  /** Where a path in a link column is read from; null when the rows give links only. */
  sheetFolder: string | null;
  outDir: string;
  concurrency: number;
  target?: ProjectKind;
}

/** The campaign's record from a check: refused rows are kept (the manifest lists them) and never sent. */
export function newCampaignRecord(input: NewCampaign, now = Date.now()): CampaignRecord {
  return {
    version: 1,
    id: input.id,
    label: input.label,
    createdAt: now,
    target: input.target ?? input.template.project.kind,
    template: input.template,
    variables: columnVariables(input.template).map((v) => ({ key: v.key, name: v.name })),
    sheetFolder: input.sheetFolder,
    voiceIds: input.check.voiceIds,
    outDir: input.outDir,
    state: 'running',
    concurrency: input.concurrency,
    rows: input.check.rows.map((row) => ({
      row: row.row,
      line: row.line,
      values: { ...row.values },
      fileName: row.fileName,
      state: row.problems.length > 0 ? 'invalid' : 'pending',
      problems: row.problems,
      take: 0,
      voiceovers: {},
      resultUrl: null,
      expiresAt: null,
      savedAt: null,
    })),
  };
}

/**
 * The campaign again from its spreadsheet as it is now (run again on the same folder): a row whose values
 * and file name are unchanged keeps its state and result, so it is not sent again; a changed row that is
 * not under way starts a new take; new rows are added. With `retryFailed`, failed rows start a new take.
 */
export function reviseCampaign(
  existing: CampaignRecord,
  fresh: CampaignRecord,
  options: { retryFailed?: boolean } = {},
): CampaignRecord {
  const old = new Map(existing.rows.map((r) => [r.row, r]));
  // A path a row gave beside the spreadsheet is the same value as the link it names (a file: URL), which
  // is how the rows come when the spreadsheet's files were named to the host one by one (the command line).
  const beside = existing.sheetFolder ? linkBeside(existing.sheetFolder) : (value: string) => value;
  const sameValue = (was: string | undefined, now: string) => was === now || (was !== undefined && beside(was) === now);
  const rows = fresh.rows.map((row) => {
    const before = old.get(row.row);
    if (!before) return row;
    const keys = Object.keys(row.values);
    const same =
      before.fileName === row.fileName &&
      keys.length === Object.keys(before.values).length &&
      keys.every((key) => sameValue(before.values[key], row.values[key]));
    const underWay = before.state === 'voiceover' || before.state === 'video' || before.state === 'download';
    // A row kept as it was is still named by where it is in the sheet now.
    if (underWay || (same && !(options.retryFailed && before.state === 'failed') && before.state !== 'cancelled'))
      return row.line === undefined ? before : { ...before, line: row.line };
    return { ...row, take: before.take + 1 };
  });
  const kept = existing.rows.filter((r) => !fresh.rows.some((f) => f.row === r.row));
  const state = rows.some((r) => r.state === 'pending') ? 'running' : existing.state;
  return {
    ...existing,
    template: fresh.template,
    variables: fresh.variables,
    // Rows kept as they were still read their paths beside the spreadsheet they came from.
    sheetFolder: fresh.sheetFolder ?? existing.sheetFolder,
    voiceIds: { ...existing.voiceIds, ...fresh.voiceIds },
    concurrency: fresh.concurrency,
    state,
    rows: [...rows, ...kept].sort((a, b) => a.row - b.row),
  };
}

/** One campaign per output folder: running it again on the same folder goes on with it. */
export function campaignIdFor(outDir: string): string {
  return `campaign-${createHash('sha256').update(outDir).digest('hex').slice(0, 20)}`;
}

/** The question's lines: every voiceover and video of the rows still to send. */
export function campaignQuote(record: CampaignRecord): QuoteItem[] {
  return campaignQuoteItems(
    record.rows.filter((r) => r.state === 'pending').map((r) => rowProject(record, r)),
    record.target,
  );
}

/**
 * Refuses (StudioError) a campaign whose price the confirmation does not cover or that does not fit
 * in today's spending limit; every create of its rows is checked against the limit again when sent.
 */
export function requireCampaignConfirmed(
  quote: PriceQuote,
  record: Pick<CampaignRecord, 'target'>,
  confirmation: PaidConfirmation | undefined,
  policy: Pick<SpendingPolicy, 'skipQuestionUnder'>,
): void {
  const refusal = campaignRefusal(quote, record.target, confirmation, policy);
  if (refusal) throw new StudioError(refusal.message, refusal.code);
}
