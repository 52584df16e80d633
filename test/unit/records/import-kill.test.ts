import { createWriteStream, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../electron/services/records/database';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { runImportChild } from './kill-half-way';
import { putLine, record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const JOBS = 50_000;
/** Jobs whose later lines supersede their first (as polls did): the import must keep the last. */
const CHANGED = 10_000;
const LINES = JOBS + CHANGED;

/** A journal as a busy studio left it: every job created, some moved on, a torn line at the end. */
async function writeBigJournal(dir: string): Promise<void> {
  mkdirSync(join(dir, 'jobs'));
  const out = createWriteStream(join(dir, 'jobs', 'ledger.jsonl'));
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  for (let i = 0; i < JOBS; i += 1) await write(`${putLine(record(`job-${i}`, 'queued', i))}\n`);
  for (let i = 0; i < CHANGED; i += 1) await write(`${putLine(record(`job-${i * 5}`, 'completed', i * 5))}\n`);
  await write('{"put":{"id":"torn","ki');
  out.end();
  await once(out, 'close');
}

const runChild = (dir: string, args: string[], until: string, kill: boolean) =>
  runImportChild('import-child.ts', dir, args, until, kill);

describe('a studio killed while it takes the old journal in', () => {
  // Fails when the journal is set aside before the last transaction commits (mutation: rename it first):
  // the jobs the killed import had not reached would be gone.
  it('leaves the journal in place, and the next start ends with every job exactly once at its newest', async () => {
    const dir = tempDir('import-kill-');
    await writeBigJournal(dir);

    const half = await runChild(dir, ['pause', String(LINES / 2)], 'half ', true);
    const committed = Number(half.split(' ')[1]);
    const db = new Database(join(dir, DATABASE_FILE));
    const rowsAtKill = (db.prepare('SELECT count(*) FROM jobs').raw().get() as number[])[0];
    db.close();
    // The kill landed half way: some rows in, the journal still whole and in place.
    expect(committed).toBeGreaterThanOrEqual(LINES / 2);
    expect(rowsAtKill).toBeGreaterThan(0);
    expect(rowsAtKill).toBeLessThan(JOBS);
    expect(readdirSync(join(dir, 'jobs'))).toEqual(['ledger.jsonl']);

    expect(await runChild(dir, [], 'done ', false)).toBe(`done ${JOBS}`);
    const jobs = openLedger(dir, { readOnly: true }).loadAll();
    expect(jobs).toHaveLength(JOBS);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(JOBS);
    const completed = jobs.filter((j) => j.phase === 'completed').map((j) => Number(j.id.slice(4)));
    expect(completed).toHaveLength(CHANGED);
    expect(completed.every((n) => n % 5 === 0)).toBe(true);
    expect(existsSync(join(dir, 'jobs', 'ledger.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'jobs', 'ledger.jsonl.imported'))).toBe(true);
  }, 300_000);
});
