import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import type { Notice } from '../../common/bridge/system';

/** The ledger's journal: one JSON line per change, the newest line of a job wins. */
export const JOURNAL = 'ledger.jsonl';
/** Lines of the journal that could not be read, kept verbatim for the user. */
const JOURNAL_ASIDE = 'ledger.unreadable.jsonl';

export interface LedgerOnDisk {
  /** The newest valid record of each job (none when read without validation). */
  records: Map<string, JobRecord>;
  /** Bytes of the journal up to its last whole line (a cut-off tail is a batch that never settled). */
  journalLength: number;
  /** Bytes of the newest line of each live job, to judge when the journal is worth compacting. */
  liveBytes: Map<string, number>;
}

interface Reporting {
  log?: Logger;
  notify?: (notice: Notice) => void;
}

const setAsideTitle = 'A job record could not be read and was set aside';

/**
 * Reads everything the ledger's journal holds. Nothing here waits for or blocks the writer: a line
 * still being appended has no newline yet and is left for the next read.
 */
export function readLedger(dir: string, reporting: Reporting = {}, options: { validate?: boolean } = {}): LedgerOnDisk {
  const found: LedgerOnDisk = { records: new Map(), journalLength: 0, liveBytes: new Map() };
  const journal = join(dir, JOURNAL);
  if (!existsSync(journal)) return found;
  const text = readFileSync(journal, 'utf8');
  found.journalLength = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
  const lines = text.split('\n').slice(0, -1);
  const newest = new Map<string, string>();
  for (const line of lines) {
    const change = parseLine(line);
    if (!change) {
      if (line.trim() !== '') setAsideLine(dir, line, reporting);
      continue;
    }
    if ('remove' in change) {
      newest.delete(change.remove);
      found.liveBytes.delete(change.remove);
    } else {
      newest.set(change.put.id, line);
      found.liveBytes.set(change.put.id, Buffer.byteLength(line) + 1);
    }
  }
  // Only the line that counts is checked in full; older lines of a job are history. A writer that only
  // needs the journal's extent skips it (its loadAll checked them).
  if (options.validate === false) return found;
  for (const [id, line] of newest) {
    const put = (JSON.parse(line) as { put: unknown }).put;
    const parsed = JobRecord.safeParse(put);
    if (parsed.success) found.records.set(id, parsed.data);
    else {
      found.records.delete(id);
      found.liveBytes.delete(id);
      setAsideLine(dir, line, reporting, JSON.stringify(put));
    }
  }
  return found;
}

function parseLine(line: string): { put: { id: string } } | { remove: string } | null {
  try {
    const value = JSON.parse(line) as unknown;
    if (!value || typeof value !== 'object') return null;
    const change = value as { put?: { id?: unknown }; remove?: unknown };
    if (typeof change.remove === 'string') return { remove: change.remove };
    if (change.put && typeof change.put === 'object' && typeof change.put.id === 'string')
      return { put: { id: change.put.id } };
    return null;
  } catch {
    return null;
  }
}

/** Keeps an unreadable journal line beside the journal (once) and tells the user what it still says. */
function setAsideLine(dir: string, line: string, reporting: Reporting, recordText = line): void {
  const aside = join(dir, JOURNAL_ASIDE);
  const kept = existsSync(aside) ? readFileSync(aside, 'utf8').split('\n') : [];
  if (kept.includes(line)) return;
  appendFileSync(aside, `${line}\n`, { mode: 0o600 });
  reporting.log?.warn('job ledger line set aside', { file: aside });
  reporting.notify?.({
    level: 'warning',
    title: setAsideTitle,
    detail: `The job is no longer listed in the Library. ${describeRecoverable(recordText)} Its text was kept in ${aside}.`,
  });
}

/**
 * What can still be read of a damaged job record, so the user can find the paid job on the service:
 * its kind, the service's id, the result link and when it was made. Works on records that are valid
 * JSON but not a valid record, and on cut-off text (by looking for the fields' text).
 */
function describeRecoverable(text: string): string {
  let fields: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') fields = parsed as Record<string, unknown>;
  } catch {
    for (const name of ['kind', 'remoteId', 'resultUrl', 'connectionName', 'summary']) {
      const match = new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text);
      if (match) fields[name] = match[1];
    }
    const created = /"createdAt"\s*:\s*(\d+)/.exec(text);
    if (created) fields.createdAt = Number(created[1]);
  }
  const known: string[] = [];
  if (typeof fields.summary === 'string') known.push(`request: ${fields.summary}`);
  else if (typeof fields.kind === 'string') known.push(`kind: ${fields.kind}`);
  if (typeof fields.connectionName === 'string') known.push(`sent to: ${fields.connectionName}`);
  if (typeof fields.remoteId === 'string') known.push(`service id: ${fields.remoteId}`);
  if (typeof fields.resultUrl === 'string') known.push(`result: ${fields.resultUrl}`);
  if (typeof fields.createdAt === 'number') known.push(`created: ${new Date(fields.createdAt).toISOString()}`);
  return known.length > 0
    ? `What could be read of it: ${known.join('; ')}.`
    : 'Nothing of it could be read; check the service dashboard for jobs you sent.';
}
