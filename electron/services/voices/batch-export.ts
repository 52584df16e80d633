import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import Papa from 'papaparse';
import PQueue from 'p-queue';
import type { BatchRowView } from '../../common/bridge/batches';
import type { WholeBatch } from './batch-view';
import { numberedName, renderTemplate, safeRelativeName } from '../../common/file-names';
import { fetchToFile, FinalDownloadError } from '../downloads/fetch-to-file';
import { writeFileAtomic } from '../projects/atomic-file';
import { sheetRow } from '../../common/text/row-label';

export const MANIFEST_NAME = 'manifest.csv';

export interface ExportOptions {
  /** Checks a downloaded file is real audio (ffprobe); throws with the reason otherwise. */
  verify?: (path: string) => Promise<void>;
  fetch?: typeof globalThis.fetch;
  /** After each row's file is saved or skipped. */
  onRow?: (row: BatchRowView, file: string | null, error: string | null) => void;
  /** A voice's name for the manifest (people read "Ava", not "sandbox_ava"); null when unknown. */
  voiceName?: (voiceId: string) => string | null;
  /**
   * Where an earlier Save of this same batch put each row's file. A row whose new take has another name
   * (its script was changed) replaces that file: the old one is deleted once the new one is saved, so
   * the folder holds one file per row. Only files this batch saved are ever deleted.
   */
  replaces?: ReadonlyMap<number, string>;
  /** How long a saved file plays, in seconds (ffprobe); null when it cannot be read. */
  duration?: (path: string) => Promise<number | null>;
  /**
   * Saves a row's result as `target` through the host's download queue, which records the copy and
   * answers whether it fetched anything (an intact copy is kept as it is; a lost or changed one is
   * fetched again in its place). Without it the file is fetched and verified but recorded nowhere.
   */
  saveCopy?: (row: BatchRowView, target: string) => Promise<boolean>;
  /** A file this batch saved and has now deleted (a row's earlier take): its copy leaves the record. */
  forgetCopy?: (path: string) => Promise<void>;
  /** Whether the file at `path` is one the studio did not save (the record of copies holds no intact copy there). */
  foreignFile?: (path: string) => Promise<boolean>;
  /**
   * What to do with a row whose name is taken by a file the studio did not save: keep both (the row's
   * file gets a new name), replace it, or skip the row. Without it the file is left as it is and the row
   * is named among the failed ones (saveCopy refuses to write over it).
   */
  existing?: 'skip' | 'replace' | 'rename';
}

/** Files fetched at once: a batch's files are small, and one at a time took minutes for 55 of them. */
const SAVES_AT_ONCE = 4;

export interface ExportResult {
  saved: number;
  /** Rows whose file is in the folder (saved now or by an earlier run). */
  inFolder: number;
  failed: { row: number; line?: number; error: string }[];
  manifest: string;
  /** Each row in the folder: its file's path and the link it was saved from. */
  files: Map<number, { path: string; link: string }>;
}

/** The row's number in the sheet, to name a failed row as the table does. */
const lineOf = (row: Pick<BatchRowView, 'line'>) => (row.line === undefined ? {} : { line: row.line });

/** Each row's file name in the folder: the template filled from the row, made safe, never shared. */
export function batchFileNames(view: WholeBatch): Map<number, string> {
  const names = new Map<number, string>();
  const used = new Set<string>();
  // {row} has as many digits as the last row, so the files sort in row order (01, 02, … 10). Rows
  // deleted from the table leave gaps: the last row's number, not the count, sets the width.
  const digits = String(Math.max(0, ...view.rows.map((row) => row.row + 1))).length;
  for (const row of view.rows) {
    const rendered = renderTemplate(view.template, {
      row: String(row.row + 1).padStart(digits, '0'),
      name: row.name,
      text: row.text,
      voice: row.voiceId,
      id: row.jobId,
    });
    const base = safeRelativeName(rendered, 'mp3');
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n += 1) name = numberedName(base, n);
    used.add(name.toLowerCase());
    names.set(row.row, name);
  }
  return names;
}

/**
 * Saves every completed row's audio into `folder` (named from the batch's template), a few at a time,
 * and writes `manifest.csv` beside them (see manifestCsv). A file already there
 * from an earlier run is kept, so running it again only fetches what is missing. Downloads go through
 * a `.part` file checked before it takes its name, so a failure leaves no broken file.
 */
export async function exportBatch(
  view: WholeBatch,
  folder: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const names = batchFileNames(view);
  const files = new Map<number, string>();
  const seconds = new Map<number, number>();
  const failed: ExportResult['failed'] = [];
  let saved = 0;
  const queue = new PQueue({ concurrency: SAVES_AT_ONCE });
  const earlier = await linksSavedIn(folder);
  const taken = new Set([...names.values()].map((name) => name.toLowerCase()));
  const save = async (row: BatchRowView & { resultUrl: string }): Promise<void> => {
    let name = names.get(row.row) as string;
    let target = join(folder, name);
    // Kept when it is this result; a row made again since has a new link, and its new take replaces the file.
    const sameTake = (earlier.get(name) ?? row.resultUrl) === row.resultUrl;
    const kept = async (): Promise<void> => {
      files.set(row.row, name);
      const length = await options.duration?.(target).catch(() => null);
      if (length !== undefined && length !== null) seconds.set(row.row, length);
      options.onRow?.(row, name, null);
    };
    if (!options.saveCopy && existsSync(target) && sameTake) return kept();
    const earlierFile = options.replaces?.get(row.row);
    const foreign = options.existing !== 'replace' && (await options.foreignFile?.(target)) === true;
    if (foreign && earlierFile && dirname(earlierFile) === folder && !(await options.foreignFile?.(earlierFile))) {
      // Saved under another name before (the user chose to keep both): that file is the row's own.
      name = basename(earlierFile);
      target = earlierFile;
      names.set(row.row, name);
    } else if (foreign && options.existing) {
      if (options.existing === 'skip') {
        const reason = `skipped: the folder has a file "${name}" the studio did not save; it was left as it is`;
        failed.push({ row: row.row, ...lineOf(row), error: reason });
        return options.onRow?.(row, null, reason);
      }
      name = await freeName(folder, name, taken);
      target = join(folder, name);
      names.set(row.row, name);
    }
    try {
      if (!options.saveCopy) await saveWithRetries(row.resultUrl, target, options);
      if (!options.saveCopy || (await options.saveCopy(row, target))) saved += 1;
      const old = options.replaces?.get(row.row);
      if (old && old !== target && dirname(old) === folder && !taken.has(basename(old).toLowerCase())) {
        await rm(old, { force: true });
        await options.forgetCopy?.(old);
      }
      await kept();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failed.push({ row: row.row, ...lineOf(row), error: message });
      options.onRow?.(row, null, message);
    }
  };
  for (const row of view.rows) {
    // A row being made again still has its last good take: that one is saved until the new one is good.
    if (row.resultUrl) void queue.add(() => save({ ...row, resultUrl: row.resultUrl as string }));
  }
  await queue.onIdle();
  failed.sort((a, b) => a.row - b.row);
  const manifest = join(folder, MANIFEST_NAME);
  await writeFileAtomic(manifest, manifestCsv(view, files, options.voiceName, seconds));
  const where = new Map(
    [...files].map(([row, name]) => [
      row,
      { path: join(folder, name), link: view.rows.find((r) => r.row === row)?.resultUrl as string },
    ]),
  );
  return { saved, inFolder: files.size, failed, manifest, files: where };
}

/** "1-one (2).mp3": the first name free on disk and among the batch's names (which it then holds). */
async function freeName(folder: string, name: string, taken: Set<string>): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 2; ; n += 1) {
    const candidate = `${stem} (${n})${ext}`;
    if (taken.has(candidate.toLowerCase()) || existsSync(join(folder, candidate))) continue;
    taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** Which link each file in the folder was saved from, as the last manifest written there says. */
async function linksSavedIn(folder: string): Promise<Map<string, string>> {
  const text = await readFile(join(folder, MANIFEST_NAME), 'utf8').catch(() => '');
  const lines = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data;
  return new Map(lines.filter((line) => line.file && line.link).map((line) => [line.file, line.link]));
}

export async function saveWithRetries(url: string, target: string, options: ExportOptions): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await fetchToFile({ url, target, validators: null, verify: options.verify, fetch: options.fetch });
      return;
    } catch (error) {
      if (error instanceof FinalDownloadError || attempt >= 3) throw error;
    }
  }
}

export const MANIFEST_COLUMNS = [
  'sheet_row',
  'name',
  'text',
  'voice',
  'voice_name',
  'rate',
  'status',
  'reason',
  'file',
  'duration_s',
  'link',
  'expiry',
  'cost_credits',
] as const;

/**
 * The manifest's text: one line per row (its name, why it was refused or failed, the file, empty when
 * it is not in the folder, how long it plays). It opens with a byte-order mark: without one, Excel reads
 * UTF-8 as its own code page and garbles every accent and non-Latin script. The cost is what the
 * service reported charging for the row's job; the cell is empty when it reported nothing (the service
 * publishes no price for speech, and a figure the studio made up would be worse than none).
 */
export function manifestCsv(
  view: WholeBatch,
  files: ReadonlyMap<number, string>,
  voiceName: (voiceId: string) => string | null = () => null,
  seconds: ReadonlyMap<number, number> = new Map(),
): string {
  const lines = view.rows.map((row) => ({
    sheet_row: sheetRow(row),
    name: row.name ?? '',
    text: row.text,
    voice: row.voiceId,
    voice_name: voiceName(row.voiceId) ?? '',
    rate: row.rate,
    status: row.state,
    reason: row.problem ?? '',
    file: files.get(row.row) ?? '',
    duration_s: seconds.has(row.row) ? (seconds.get(row.row) as number).toFixed(2) : '',
    link: row.resultUrl ?? '',
    expiry: row.expiresAt ? new Date(row.expiresAt).toISOString() : '',
    cost_credits: row.chargedCredits ?? '',
  }));
  return `\uFEFF${Papa.unparse(lines, {
    columns: [...MANIFEST_COLUMNS],
    // A script starting with = or + must not become a formula when the manifest is opened in a spreadsheet.
    escapeFormulae: true,
  })}\r\n`;
}
