import { extname, join, resolve } from 'node:path';
import type { DownloadView } from '../../common/bridge/downloads';
import type { JobView } from '../../common/bridge/jobs';
import { MADE_EARLIER, type CampaignRecord, type CampaignRowRecord } from '../../common/campaign/record';
import { rowLabel } from '../../common/text/row-label';
import { StudioError } from '../host/errors';
import { identityOf } from './row-identity';
import { withPaidVoiceovers } from './step-reuse';

/**
 * Never pay twice, never overwrite without asking: what every start of a campaign (a new one, or one
 * gone on with from its spreadsheet, in the studio or from the command line) does with the folder it
 * saves into before anything is priced. A row whose identical result (row-identity.ts) is already in
 * the folder, intact by the record of copies and on disk, starts as done ("made earlier, kept"); one
 * whose result is made but its file gone only saves again while its link works; the rest are sent. A
 * row that would write over a file that is not its own identical result waits for the user's choice.
 */

/** What the user chose for a row whose name is taken in the folder by a file that is not its result. */
export type ExistingFileChoice = 'skip' | 'replace' | 'rename';

/** The folder as a start finds it. */
export interface CampaignFolder {
  /** Every campaign saving into the folder (the one gone on with included). */
  campaigns: readonly CampaignRecord[];
  /** The record of copies' entries in the folder, each checked on disk now. */
  copies: readonly Pick<DownloadView, 'url' | 'savedPath' | 'state'>[];
  /** Whether anything is at this path now. */
  exists(path: string): boolean;
  now: number;
  /** Voiceovers already paid for and still usable, by what they say (step-reuse.ts); none: each row pays its own. */
  voiceovers?: ReadonlyMap<string, string>;
}

/** A row that would write over a file it did not make. */
export interface ExistingFile {
  row: number;
  /** Its number in the spreadsheet, when the sheet was read with its lines (rowLabel). */
  line: number | null;
  fileName: string;
}

export interface FolderPlan {
  record: CampaignRecord;
  /** Rows whose name is taken and for which no choice was given: nothing may start while there is one. */
  existing: ExistingFile[];
  /** Rows kept from the folder (0 jobs each). */
  kept: number;
}

/** A result link still fetchable for a while (a save started now has time to finish). */
const SAVE_MARGIN_MS = 10 * 60_000;
export const linkWorks = (expiresAt: number | null, now: number, margin = SAVE_MARGIN_MS): boolean =>
  expiresAt === null || expiresAt > now + margin;

/** States of a row whose video, when it has one, is made and no longer being followed by its campaign. */
const MADE_STATES: ReadonlySet<CampaignRowRecord['state']> = new Set(['done', 'failed', 'cancelled']);

/**
 * The folder's made videos by identity, newest first, each with whether its copy is intact: done rows,
 * and rows whose video was made but that ended without it saved (its save failed, the campaign was
 * cancelled), which a start saves again from its link instead of paying for it again.
 */
function madeIn(folder: CampaignFolder, outDir: string): Map<string, { row: CampaignRowRecord; intact: boolean }[]> {
  const intact = new Set(
    folder.copies.filter((c) => c.state === 'saved' && c.savedPath).map((c) => `${c.url}\n${c.savedPath}`),
  );
  const made = new Map<string, { row: CampaignRowRecord; intact: boolean }[]>();
  for (const campaign of [...folder.campaigns].sort((a, b) => b.createdAt - a.createdAt)) {
    if (resolve(campaign.outDir) !== resolve(outDir)) continue;
    for (const row of campaign.rows) {
      if (!row.resultUrl || !MADE_STATES.has(row.state)) continue;
      const path = resolve(outDir, row.fileName);
      const saved = row.state === 'done' && intact.has(`${row.resultUrl}\n${path}`);
      const entry = { row, intact: saved && folder.exists(path) };
      const key = identityOf(campaign, row);
      made.set(key, [...(made.get(key) ?? []), entry]);
    }
  }
  return made;
}

/** "07 - Ana (2).mp4": the first name free in the folder and among the campaign's rows. */
function freeName(fileName: string, taken: (name: string) => boolean): string {
  const ext = extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  for (let n = 2; ; n += 1) {
    const name = `${stem} (${n})${ext}`;
    if (!taken(name)) return name;
  }
}

/**
 * The record as it starts on this folder: rows to send stay pending, rows the folder has are kept or
 * saved again, and rows whose name is taken follow `choice` (none given: they are listed in `existing`).
 */
export function planOnFolder(record: CampaignRecord, folder: CampaignFolder, choice?: ExistingFileChoice): FolderPlan {
  const made = madeIn(folder, record.outDir);
  const names = new Set(record.rows.map((r) => r.fileName));
  const existing: ExistingFile[] = [];
  let kept = 0;
  const rows = record.rows.map((row): CampaignRowRecord => {
    if (row.state !== 'pending' && row.state !== 'done') return row;
    const identity = identityOf(record, row);
    const earlier = made.get(identity) ?? [];
    const whole = earlier.find((e) => e.intact);
    if (whole) {
      kept += 1;
      if (row.state === 'done' && whole.row.resultUrl === row.resultUrl && whole.row.fileName === row.fileName)
        return row;
      const { resultUrl, expiresAt, savedAt, voiceovers, fileName, formatResults } = whole.row;
      return {
        ...row,
        formatResults,
        madeFrom: identity,
        state: 'done',
        problems: [MADE_EARLIER],
        fileName,
        resultUrl,
        expiresAt,
        savedAt,
        voiceovers,
      };
    }
    // Made, its file gone or changed: saved again from its link, nothing paid; else made afresh.
    const fetchable = earlier.find((e) => linkWorks(e.row.expiresAt, folder.now));
    const planned: CampaignRowRecord = fetchable
      ? {
          ...row,
          madeFrom: identity,
          state: 'download',
          problems: [],
          fileName: fetchable.row.fileName,
          resultUrl: fetchable.row.resultUrl,
          formatResults: fetchable.row.formatResults,
          expiresAt: fetchable.row.expiresAt,
          savedAt: null,
          voiceovers: fetchable.row.voiceovers,
        }
      : row.state === 'done'
        ? {
            ...row,
            state: 'pending',
            problems: [],
            take: row.take + 1,
            voiceovers: {},
            resultUrl: null,
            savedAt: null,
            formatResults: undefined,
          }
        : row;
    if (planned.replaceFile || !folder.exists(join(record.outDir, planned.fileName))) return planned;
    if (choice === 'replace') return { ...planned, replaceFile: true };
    if (choice === 'skip')
      return {
        ...planned,
        state: 'invalid',
        problems: [
          `skipped: the folder has a file "${planned.fileName}" that is not this row's video; it was left as it is`,
        ],
      };
    if (choice === 'rename') {
      const name = freeName(planned.fileName, (n) => names.has(n) || folder.exists(join(record.outDir, n)));
      names.add(name);
      // The identity keeps the name asked for: run again, the renamed video is this row's own.
      return { ...planned, madeFrom: identity, fileName: name };
    }
    existing.push({ row: row.row, line: row.line ?? null, fileName: planned.fileName });
    return planned;
  });
  const state = rows.some((r) => r.state === 'pending' || r.state === 'download') ? 'running' : record.state;
  const planned = { ...record, state, rows };
  // Rows still to send take the voiceovers already paid for: only the missing steps are sent and priced.
  const paid = folder.voiceovers;
  const reused = paid ? { ...planned, rows: rows.map((r) => withPaidVoiceovers(planned, r, paid)) } : planned;
  return { record: reused, existing, kept };
}

/**
 * An ended row made again, sending only what it lacks: a made video whose save failed is saved again
 * while its link works; voiceovers that completed and have not expired are kept, so only the video is
 * sent (under the next take); otherwise the row starts over. `jobs` are the ledger's (their expiries).
 */
export function retriedRow(row: CampaignRowRecord, jobs: readonly JobView[], now: number): CampaignRowRecord {
  if (row.state === 'failed' && row.resultUrl && !row.savedAt && linkWorks(row.expiresAt, now))
    return { ...row, state: 'download', problems: [] };
  const expiry = new Map(jobs.filter((j) => j.resultUrl).map((j) => [j.resultUrl as string, j.expiresAt]));
  const voiceovers = Object.values(row.voiceovers).every(
    (url) => expiry.has(url) && linkWorks(expiry.get(url) ?? null, now, 60 * 60_000),
  )
    ? row.voiceovers
    : {};
  // A failed row keeps the formats it made (their links still working): its retry pays only for the others.
  const kept = Object.entries(row.state === 'failed' ? (row.formatResults ?? {}) : {}).filter(([, made]) =>
    linkWorks(made.expiresAt, now, 60 * 60_000),
  );
  return {
    ...row,
    state: 'pending',
    problems: [],
    take: row.take + 1,
    voiceovers,
    resultUrl: null,
    expiresAt: null,
    savedAt: null,
    ...(row.formatResults ? { formatResults: Object.fromEntries(kept) } : {}),
  };
}

/** Refuses a start while rows would write over files they did not make, naming them and the choices. */
export function existingFilesError(existing: readonly ExistingFile[], outDir: string): StudioError {
  const named = existing
    .slice(0, 5)
    .map((e) => `"${e.fileName}" (${rowLabel(e)})`)
    .join(', ');
  const more = existing.length > 5 ? ` and ${existing.length - 5} more` : '';
  return new StudioError(
    `${existing.length} row${existing.length === 1 ? '' : 's'} would write over a file in ${outDir} that ${existing.length === 1 ? 'is' : 'are'} not ${existing.length === 1 ? 'its' : 'their'} own video: ${named}${more}. Choose to keep both (a new name), replace, or skip ${existing.length === 1 ? 'that row' : 'those rows'}.`,
    'files-exist',
  );
}
