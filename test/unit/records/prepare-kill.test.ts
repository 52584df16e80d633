// The desktop app and the web host take a folder's old records in a step at a time (prepareRecords)
// before they open them. A start killed at any of those steps loses and duplicates nothing: the next
// start finishes the import, and every old file is kept under another name once it is in.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImportChild } from './kill-half-way';
import { removeTempDirs, tempDir } from './ledger-fixtures';
import { CHANGED, COPIES, JOBS, LINKS, RUNS, recordsIn, writeOldFolder } from './old-folder';

afterEach(removeTempDirs);

type Found = ReturnType<typeof recordsIn>;

/** Where each start is killed, what the folder holds then (the kill landed half way), and the file left. */
const KILLS: { stage: string; at: number; atKill: (found: Found) => void; left: string }[] = [
  {
    stage: 'journal',
    at: JOBS / 2,
    atKill: (found) => {
      expect(found.jobs).toBeGreaterThanOrEqual(JOBS / 2);
      expect(found.jobs).toBeLessThan(JOBS);
    },
    left: 'jobs/ledger.jsonl',
  },
  {
    // Committed, not yet set aside: the replay must skip what is in.
    stage: 'links',
    at: 1,
    atKill: (found) => expect([found.jobs, found.links, found.copies]).toEqual([JOBS, LINKS, 0]),
    left: 'uploads.json',
  },
  {
    stage: 'copies',
    at: COPIES / 3,
    atKill: (found) => {
      expect(found.copies).toBeGreaterThanOrEqual(COPIES / 3);
      expect(found.copies).toBeLessThan(COPIES);
    },
    left: 'downloads/queue.json',
  },
  {
    // Inside the second campaign's transaction, the first one committed and set aside.
    stage: 'runs',
    at: RUNS[0].rows + 1,
    atKill: (found) => {
      expect(found.copies).toBe(COPIES + 1);
      expect(found.runs).toEqual(['campaigns/c-1']);
    },
    left: 'campaigns/c-2.json',
  },
];

describe('a desktop app or web host killed while it prepares an old folder', () => {
  // Fails when an import's protection is dropped: a run committed a few rows at a time (its remaining rows
  // are then never put), a file set aside before its rows committed (what the kill had not reached is
  // lost), an entry put again where it is (the replay is refused or counts it twice).
  it.each(KILLS)(
    'killed at a $stage stage, the next start has every job, copy, run row and link once',
    async ({ stage, at, atKill, left }) => {
      const dir = tempDir('prepare-kill-');
      writeOldFolder(dir);

      const said = await runImportChild('prepare-child.ts', dir, [stage, String(at)], 'stage ', true);
      expect(JSON.parse(said.slice('stage '.length))).toMatchObject({ stage });
      atKill(recordsIn(dir));
      expect(existsSync(join(dir, left))).toBe(true);

      expect(await runImportChild('prepare-child.ts', dir, [], 'done', false)).toBe('done');
      const found = recordsIn(dir);
      expect(found).toMatchObject({
        jobs: JOBS,
        distinctJobs: JOBS,
        copies: COPIES + 1,
        distinctCopies: COPIES + 1,
        missing: ['d-7'],
        runs: ['batches/b-1', 'campaigns/c-1', 'campaigns/c-2'],
        rows: RUNS.map((run) => `${run.kind}/${run.id}:${run.rows}`).sort(),
        rowsChanged: 2 * RUNS.length,
        links: LINKS,
      });
      expect([...found.completed].sort((a, b) => a - b)).toEqual(Array.from({ length: CHANGED }, (_, i) => i * 5));
      // Every old file kept under another name, none left to be taken in again.
      expect(readdirSync(join(dir, 'jobs'))).toEqual(['ledger.jsonl.imported']);
      expect(readdirSync(join(dir, 'downloads')).sort()).toEqual([
        'queue.json.imported',
        'queue.json.journal.imported',
      ]);
      for (const kind of ['campaigns', 'batches'])
        expect(readdirSync(join(dir, kind)).sort()).toEqual(
          RUNS.filter((run) => run.kind === kind).flatMap((run) => [
            `${run.id}.json.imported`,
            `${run.id}.rows.jsonl.imported`,
          ]),
        );
      expect(existsSync(join(dir, 'uploads.json'))).toBe(false);
      expect(existsSync(join(dir, 'uploads.json.imported'))).toBe(true);
    },
    120_000,
  );
});
