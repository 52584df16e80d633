// Issue 53's journey, as a marketer runs it from the command line on the studio's own host and its
// built-in sandbox: a 100-row sheet (plus one row with an absurd cell) on an account whose balance
// covers about 20 rows. The price question says so; the run pauses at the balance with no row failed
// for it; after a top-up the same command finishes; the overlong row is held and never paid for; every
// video is at least as long as its own voiceovers (ffprobe of both files); the manifest keeps the email
// column and names exactly the videos in the folder; and the same sheet run again creates 0 jobs and
// writes 0 files. Every row is a real render and none of these needs more rows than a pause with most
// of the sheet left, so the sheet stays this small.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { startBuiltInSandbox } from '../../../electron/emulator/built-in';
import { readLedgerJobs } from '../../read-ledger';
import { createdPerStep, smallTemplate } from '../campaign/campaign-harness';
import { runIn, writeLogo } from './cli-io';
import { mediaToolGenerations } from '../../media-tools-env';

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-journey-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROWS = 100;
/** Rows the balance covers at first. */
const COVERED = 20;
const data = join(dir, 'data');
const out = join(dir, 'out');

// The built-in sandbox's jobs end as soon as their work does, not after four seconds (its renders and
// speech are real all the same); fewer looks at each job follow.
const cli = (args: string[]) => runIn(dir, args, { jobSeconds: 0.2 });

async function withSandbox<T>(change: (sandbox: Awaited<ReturnType<typeof startBuiltInSandbox>>) => T) {
  const sandbox = await startBuiltInSandbox(data);
  try {
    return change(sandbox);
  } finally {
    await sandbox.close();
  }
}

// The npm ffprobe: it starts in milliseconds, where Debian's loads its many libraries first (~80 ms of
// CPU a call), and this reads three files a row. One ffprobe a file, all of them started by one shell:
// a process started by this test's worker costs a copy of its page tables (tens of ms of CPU here).
const { ffprobe } = mediaToolGenerations()[0];
function seconds(files: readonly string[]): number[] {
  const said = execFileSync(
    'sh',
    [
      '-ec',
      'probe="$1"; shift; for f; do "$probe" -v error -show_entries format=duration -of csv=p=0 "$f"; done',
      'sh',
      ffprobe,
      ...files,
    ],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  )
    .trim()
    .split('\n');
  expect(said, 'one duration a file').toHaveLength(files.length);
  return said.map(Number);
}

const sheet = (people: readonly string[], company = (_: number) => 'Acme') =>
  [
    'First name,company,voice,avatar,logo,email',
    ...people.map((p, i) => `${p},"${company(i)}",Ava,SandboxBen,logo.png,${p.toLowerCase()}@example.com`),
  ].join('\n');

const names = (n: number) => Array.from({ length: n }, (_, i) => `Name${String(i + 1).padStart(3, '0')}`);

/** Every video in the folder with its time of change and its content's hash. */
function videos(): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const name of readdirSync(out).filter((n) => n.endsWith('.mp4')))
    seen[name] = `${statSync(join(out, name)).mtimeMs}:${createHash('sha256')
      .update(readFileSync(join(out, name)))
      .digest('hex')}`;
  return seen;
}

const jobsSent = () => [...createdPerStep(data).values()].reduce((a, b) => a + b, 0);

/** The credits the service charged for the campaign-row jobs in the ledger so far. */
const charged = () =>
  readLedgerJobs(data)
    .filter((j) => j.purpose?.type === 'campaign-row')
    .reduce((sum, j) => sum + (j.chargedCredits ?? 0), 0);

describe(`a ${ROWS}-row campaign at the account's end`, () => {
  it('is priced against the balance, pauses there, goes on after a top-up, holds the row that cannot fit, and is never paid twice', async () => {
    const { project } = smallTemplate();
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(project));
    writeLogo(join(dir, 'logo.png'));

    // A first try of two rows teaches the connection what a row is charged (the price is not published).
    writeFileSync(join(dir, 'try.csv'), sheet(['Tia', 'Tom']));
    const tried = await cli([
      'campaign',
      'run',
      'greeting.json',
      'try.csv',
      '--out',
      'try',
      '--yes',
      '--data-dir',
      data,
    ]);
    expect(tried.code, tried.said()).toBe(EXIT.ok);
    const perRow = charged() / 2;
    expect(perRow).toBeGreaterThan(0);

    // The sheet: ROWS good rows and one whose company cell is far too long to be spoken in its sentence.
    const people = [...names(ROWS), 'Zed'];
    writeFileSync(
      join(dir, 'prospects.csv'),
      sheet(people, (i) => (i === ROWS ? 'Acme Holdings International '.repeat(40).trim() : 'Acme')),
    );
    await withSandbox((sandbox) => sandbox.setCredits(COVERED * perRow));
    const run = ['campaign', 'run', 'greeting.json', 'prospects.csv', '--out', 'out', '--data-dir', data];

    // The price question, as a script meets it without --yes: nothing is sent, and it says what the balance covers.
    const asked = await cli(run);
    expect(asked.code).toBe(EXIT.refused);
    expect(asked.said()).toMatch(
      new RegExp(`covers about (${COVERED - 1}|${COVERED}|${COVERED + 1}) of these ${ROWS} rows`),
    );
    expect(asked.said()).toMatch(
      new RegExp(`Sheet row ${ROWS + 2} held, not sent until it fits: \\{\\{company\\}\\} is 1,119 characters long`),
    );
    const sentBefore = jobsSent();

    // At the balance the run pauses: exit 5, its reason, no row failed for it.
    const paused = await cli([...run, '--yes', '--json']);
    expect(paused.code, paused.said()).toBe(EXIT.paused);
    expect(paused.said()).toMatch(/Paused: the account ran out of credits\. \d+ rows left.*nothing failed for it/);
    const atPause = JSON.parse(paused.out.join('\n')) as { counts: Record<string, number> };
    expect(atPause.counts.failed ?? 0).toBe(0);
    // No more rows made than the balance paid for (how many of them ended by the pause depends on timing).
    expect(atPause.counts.done ?? 0).toBeLessThanOrEqual(COVERED);
    expect(jobsSent()).toBeGreaterThan(sentBefore);

    // Topped up, the same command goes on and makes every good row; the held row waits for its user.
    await withSandbox((sandbox) => sandbox.topUp(100_000));
    const finished = await cli([...run, '--yes', '--json']);
    const end = JSON.parse(finished.out.join('\n')) as { counts: Record<string, number> };
    expect(end.counts).toEqual({ done: ROWS, held: 1 });
    expect(finished.said()).toContain('1 row is held, not paid for');

    // Each row's steps made once (the try's two rows and the sheet's), and nothing at all for the held row.
    const ledger = readLedgerJobs(data);
    const made = new Map<string, number>();
    for (const job of ledger) {
      const p = job.purpose;
      if (p?.type !== 'campaign-row' || job.remoteId === null) continue;
      const key = `${p.campaignId}:${p.row}:${p.step}:${p.sceneId ?? ''}`;
      made.set(key, (made.get(key) ?? 0) + 1);
    }
    expect([...made].filter(([, n]) => n > 1)).toEqual([]);
    expect(made.size).toBe((2 + ROWS) * 3);
    const heldRowJobs = ledger.filter(
      (j) => j.purpose?.type === 'campaign-row' && j.purpose.row === ROWS && j.remoteId !== null,
    );
    expect(heldRowJobs).toEqual([]);

    // Every video at least as long as its own voiceovers, both measured by ffprobe on the files.
    const files = readdirSync(out).filter((n) => n.endsWith('.mp4'));
    expect(files).toHaveLength(ROWS);
    const campaignId = ledger.find(
      (j) => j.purpose?.type === 'campaign-row' && j.purpose.row === ROWS - 1 && j.kind === 'avatar-video',
    )?.purpose as { campaignId: string } | undefined;
    const voiceovers: { row: number; file: string }[] = [];
    for (const job of ledger) {
      const p = job.purpose;
      if (p?.type !== 'campaign-row' || p.campaignId !== campaignId?.campaignId || job.kind !== 'tts') continue;
      if (job.phase !== 'completed' || job.remoteId === null) continue;
      voiceovers.push({ row: p.row, file: join(data, 'sandbox', 'files', `${job.remoteId}.mp3`) });
    }
    const voiced = new Map<number, number>();
    const voiceLengths = seconds(voiceovers.map((v) => v.file));
    for (const [i, { row }] of voiceovers.entries()) voiced.set(row, (voiced.get(row) ?? 0) + voiceLengths[i]);
    expect(voiced.size).toBe(ROWS);
    const lines = Papa.parse<Record<string, string>>(
      readFileSync(join(out, 'manifest.csv'), 'utf8').replace(/^\uFEFF/, ''),
      {
        header: true,
        skipEmptyLines: true,
      },
    ).data;
    const videoLines = lines.filter((l) => l.status === 'done');
    const videoLengths = seconds(videoLines.map((line) => join(out, line.file)));
    for (const [i, line] of videoLines.entries()) {
      const row = Number(line.sheet_row) - 2;
      expect(videoLengths[i], line.file).toBeGreaterThanOrEqual((voiced.get(row) ?? Infinity) - 0.05);
    }

    // The manifest: the kept email column, every row, and exactly the videos in the folder.
    expect(lines).toHaveLength(ROWS + 1);
    expect(lines[0]).toMatchObject({
      sheet_row: '2',
      'First name': 'Name001',
      email: 'name001@example.com',
      status: 'done',
    });
    expect(lines[ROWS]).toMatchObject({ sheet_row: String(ROWS + 2), status: 'held', file: '' });
    expect(new Set(lines.filter((l) => l.file).map((l) => l.file))).toEqual(new Set(files));

    // The same sheet again into the same folder: 0 jobs, 0 files written.
    const before = videos();
    const sent = jobsSent();
    const again = await cli([...run, '--yes', '--json']);
    expect(JSON.parse(again.out.join('\n')).counts, `${again.out.join('\n')}\n${again.said()}`).toEqual({
      done: ROWS,
      held: 1,
    });
    expect(jobsSent()).toBe(sent);
    expect(videos()).toEqual(before);
  }, 900_000);
});
