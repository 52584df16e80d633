import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { BatchRowView, BatchView } from '../../common/bridge/batches';
import { numberedName, renderTemplate, safeRelativeName } from '../../common/file-names';
import { fetchToFile, FinalDownloadError } from '../downloads/fetch-to-file';
import { writeFileAtomic } from '../projects/atomic-file';

export const MANIFEST_NAME = 'manifest.csv';

export interface ExportOptions {
  /** Checks a downloaded file is real audio (ffprobe); throws with the reason otherwise. */
  verify?: (path: string) => Promise<void>;
  fetch?: typeof globalThis.fetch;
  /** After each row's file is saved or skipped. */
  onRow?: (row: BatchRowView, file: string | null, error: string | null) => void;
}

export interface ExportResult {
  saved: number;
  /** Rows whose file is in the folder (saved now or by an earlier run). */
  inFolder: number;
  failed: { row: number; error: string }[];
  manifest: string;
}

/** Each row's file name in the folder: the template filled from the row, made safe, never shared. */
export function batchFileNames(view: BatchView): Map<number, string> {
  const names = new Map<number, string>();
  const used = new Set<string>();
  for (const row of view.rows) {
    const rendered = renderTemplate(view.template, { row: row.row + 1, name: row.name, text: row.text, voice: row.voiceId, id: row.jobId });
    const base = safeRelativeName(rendered, 'mp3');
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n += 1) name = numberedName(base, n);
    used.add(name.toLowerCase());
    names.set(row.row, name);
  }
  return names;
}

/**
 * Saves every completed row's audio into `folder` (named from the batch's template) and writes
 * `manifest.csv` beside them: row, text, voice, rate, status, file, link, expiry. A file already there
 * from an earlier run is kept, so running it again only fetches what is missing. Downloads go through
 * a `.part` file checked before it takes its name, so a failure leaves no broken file.
 */
export async function exportBatch(view: BatchView, folder: string, options: ExportOptions = {}): Promise<ExportResult> {
  const names = batchFileNames(view);
  const files = new Map<number, string>();
  const failed: ExportResult['failed'] = [];
  let saved = 0;
  for (const row of view.rows) {
    const name = names.get(row.row) as string;
    const target = join(folder, name);
    if (row.state !== 'completed' || !row.resultUrl) continue;
    if (existsSync(target)) {
      files.set(row.row, name);
      options.onRow?.(row, name, null);
      continue;
    }
    try {
      await saveWithRetries(row.resultUrl, target, options);
      saved += 1;
      files.set(row.row, name);
      options.onRow?.(row, name, null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failed.push({ row: row.row, error: message });
      options.onRow?.(row, null, message);
    }
  }
  const manifest = join(folder, MANIFEST_NAME);
  await writeFileAtomic(manifest, manifestCsv(view, files));
  return { saved, inFolder: files.size, failed, manifest };
}

async function saveWithRetries(url: string, target: string, options: ExportOptions): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await fetchToFile({ url, target, validators: null, verify: options.verify, fetch: options.fetch });
      return;
    } catch (error) {
      if (error instanceof FinalDownloadError || attempt >= 3) throw error;
    }
  }
}

/** The manifest's text: one line per row, the file empty when it is not in the folder. */
export function manifestCsv(view: BatchView, files: ReadonlyMap<number, string>): string {
  const lines = view.rows.map((row) => ({
    row: row.row + 1,
    text: row.text,
    voice: row.voiceId,
    rate: row.rate,
    status: row.state,
    file: files.get(row.row) ?? '',
    link: row.resultUrl ?? '',
    expiry: row.expiresAt ? new Date(row.expiresAt).toISOString() : '',
  }));
  return `${Papa.unparse(lines, {
    columns: ['row', 'text', 'voice', 'rate', 'status', 'file', 'link', 'expiry'],
    // A script starting with = or + must not become a formula when the manifest is opened in a spreadsheet.
    escapeFormulae: true,
  })}\r\n`;
}
