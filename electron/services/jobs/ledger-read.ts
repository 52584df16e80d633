import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { JobRecord } from '../../common/bridge/jobs';
import type { Logger } from '../host/types';
import type { Notice } from '../../common/bridge/system';

/**
 * The ledger's old journal (before the records database): one JSON line per change, the newest line of a
 * job wins. It is read only to be taken into the database (records/journal-import.ts).
 */
export const JOURNAL = 'ledger.jsonl';
/** Lines of the journal that could not be read, kept verbatim for the user. */
const JOURNAL_ASIDE = 'ledger.unreadable.jsonl';

export interface Reporting {
  log?: Logger;
  notify?: (notice: Notice) => void;
}

const setAsideTitle = 'A job record could not be read and was set aside';

/** A job's record as a journal line holds it, not yet checked against the schema. */
export type UncheckedRecord = Record<string, unknown> & { id: string };
/** One change of the journal: a job's whole record, or the removal of a job. */
export type JournalChange = { put: UncheckedRecord } | { remove: string };

/** Bytes read at a time: a journal may be far larger than one string can hold (about 512 MiB). */
const CHUNK_BYTES = 1 << 20;

/**
 * Calls `onLine` with each whole line of a file, in order, and the bytes read up to its end, reading a
 * chunk at a time so no journal is ever held whole. A last line without its newline is a write cut off
 * by a crash (its put never settled) and is left out. Lines are cut at the newline byte, which never
 * occurs inside a UTF-8 character, so a character split across chunks is joined before it is decoded.
 */
export function forEachLine(path: string, onLine: (line: string, bytesRead: number) => void): void {
  for (const [line, bytesRead] of readLines(path)) onLine(line, bytesRead);
}

/** forEachLine's lines as they are read, each with the bytes read up to its end (the file closes when the loop ends). */
export function* readLines(path: string): Generator<[line: string, bytesRead: number], void> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry: Buffer = Buffer.alloc(0);
    let offset = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) return;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let start = 0;
      for (let end = data.indexOf(0x0a); end !== -1; end = data.indexOf(0x0a, start)) {
        offset += end + 1 - start;
        // Copied out before the yield: the chunk is refilled by the next read.
        const line = data.toString('utf8', start, end);
        start = end + 1;
        yield [line, offset];
      }
      carry = Buffer.from(data.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
}

/** One line of the journal, or null for a line that is not a change (set it aside). */
export function parseJournalLine(line: string): JournalChange | null {
  try {
    const value = JSON.parse(line) as unknown;
    if (!value || typeof value !== 'object') return null;
    const change = value as { put?: { id?: unknown }; remove?: unknown };
    if (typeof change.remove === 'string') return { remove: change.remove };
    if (change.put && typeof change.put === 'object' && !Array.isArray(change.put) && typeof change.put.id === 'string')
      return { put: change.put as UncheckedRecord };
    return null;
  } catch {
    return null;
  }
}

/**
 * The newest valid record of a job kept as text (a journal line, a database row), or null once it has
 * been set aside beside the journal with a notice: only the text that counts is checked in full.
 */
export function readRecord(dir: string, text: string, reporting: Reporting): JobRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    setAsideLine(dir, text, reporting);
    return null;
  }
  const parsed = JobRecord.safeParse(value);
  if (parsed.success) return parsed.data;
  setAsideLine(dir, JSON.stringify({ put: value }), reporting, text);
  return null;
}

/** Keeps an unreadable journal line beside the journal (once) and tells the user what it still says. */
export function setAsideLine(dir: string, line: string, reporting: Reporting, recordText = line): void {
  const aside = join(dir, JOURNAL_ASIDE);
  const kept = existsSync(aside) ? readFileSync(aside, 'utf8').split('\n') : [];
  if (kept.includes(line)) return;
  // A folder whose jobs are all in the database may have no `jobs` folder yet.
  mkdirSync(dir, { recursive: true });
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
