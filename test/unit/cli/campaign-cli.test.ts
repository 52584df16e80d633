import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { killCliAfterSubmits, runIn, writeLogo } from './cli-io';
import { createdPerStep as perStep, NAMES, smallTemplate } from '../campaign/campaign-harness';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { NEW_ROWS_IN_LINE } from '../../../electron/services/rows/rate/row-pacer';

const createdPerStep = (dataDir: string) => [...perStep(dataDir).values()];

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runIn(dir, args);
/** Rows of the campaign killed half way: more than may be cut off by the kill, so some are made after it. */
const KILLED_ROWS = NEW_ROWS_IN_LINE + 2;

describe('studio campaign', () => {
  it('checks the rows naming the bad ones, runs the good ones into named files with a manifest of every row, and goes on without sending anything twice', async () => {
    const data = join(dir, 'data');
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    // A per-row logo given as a file beside the spreadsheet.
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(
      join(dir, 'prospects.csv'),
      [
        'First name,company,voice,avatar,logo',
        'Ana,Acme,Ava,SandboxBen,logo.png',
        ',Acme,Ava,SandboxBen,logo.png',
        'Bo,Beta,Oliver,SandboxBen,logo.png',
        'Cy,Gamma,Nobody,SandboxBen,logo.png',
        'Di,Delta,Ava,SandboxBen,missing.png',
      ].join('\n'),
    );

    const checked = await cli(['campaign', 'check', 'greeting.json', 'prospects.csv', '--data-dir', data]);
    expect(checked.code).toBe(EXIT.refused);
    const said = checked.err.join('\n');
    expect(said).toContain('prospects.csv: read as a comma-separated file in UTF-8; 5 rows, 2 can be sent, 3 cannot.');
    expect(said).toContain('Sheet row 3: {{First name}} is empty');
    expect(said).toMatch(/Sheet row 5: Scene 1 \(hello\): voice "Nobody" is not one of this connection's voices/);
    expect(said).toMatch(/Sheet row 6: Scene 1 \(hello\), element logo \(logo\): the image link is broken/);

    // Paid: without --yes (and no one to answer) the total is said and nothing is sent.
    const unasked = await cli([
      'campaign',
      'run',
      'greeting.json',
      'prospects.csv',
      '--out',
      'out',
      '--data-dir',
      data,
    ]);
    expect(unasked.code).toBe(EXIT.refused);
    expect(unasked.err.join('\n')).toMatch(/4 × tts \+ 2 × avatar-video on "Sandbox": [\s\S]*Nothing was sent/);
    expect(createdPerStep(data)).toEqual([]);

    const run = await cli([
      'campaign',
      'run',
      'greeting.json',
      'prospects.csv',
      '--out',
      'out',
      '--yes',
      '--json',
      '--data-dir',
      data,
    ]);
    expect(run.code).toBe(EXIT.ok);
    expect(JSON.parse(run.out.join('\n')).counts).toEqual({ done: 2, invalid: 3 });
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['1 - Ana.mp4', '3 - Bo.mp4', 'manifest.csv']);
    const manifest = Papa.parse<Record<string, string>>(
      readFileSync(join(dir, 'out', 'manifest.csv'), 'utf8').replace(/^\uFEFF/, ''),
      { header: true, skipEmptyLines: true },
    ).data;
    expect(manifest.map((m) => [m.sheet_row, m['First name'], m.status, m.file])).toEqual([
      ['2', 'Ana', 'done', '1 - Ana.mp4'],
      ['3', '', 'invalid', ''],
      ['4', 'Bo', 'done', '3 - Bo.mp4'],
      ['5', 'Cy', 'invalid', ''],
      ['6', 'Di', 'invalid', ''],
    ]);
    expect(manifest[0].link).toMatch(/^http/);
    expect(createdPerStep(data)).toEqual(Array(6).fill(1));

    // The same folder again: every row is where it was, nothing is sent; --strict fails on the refused rows.
    const again = await cli([
      'campaign',
      'run',
      'greeting.json',
      'prospects.csv',
      '--out',
      'out',
      '--yes',
      '--strict',
      '--data-dir',
      data,
    ]);
    expect(again.code).toBe(EXIT.failed);
    expect(createdPerStep(data)).toEqual(Array(6).fill(1));

    const status = await cli(['campaign', 'status', 'out', '--data-dir', data]);
    expect(status.code).toBe(EXIT.ok);
    expect(status.out[0]).toBe('Campaign "prospects.csv" (finished): 2 done, 3 invalid of 5 rows');
    expect(status.out.join('\n')).toContain('Sheet row 3 invalid: {{First name}} is empty');
    expect(existsSync(join(dir, 'out', '1 - Ana.mp4'))).toBe(true);

    // One video deleted, the other rewritten: status names both from the record of copies checked on
    // disk (as the Campaigns page does), and the folder is no longer the campaign's whole result.
    rmSync(join(dir, 'out', '1 - Ana.mp4'));
    appendFileSync(join(dir, 'out', '3 - Bo.mp4'), 'edited');
    const lost = await cli(['campaign', 'status', 'out', '--data-dir', data]);
    expect(lost.code).toBe(EXIT.failed);
    expect(lost.out.filter((line) => /^  Sheet row \d+ done, /.test(line))).toEqual([
      `  Sheet row 2 done, file missing: ${join(dir, 'out', '1 - Ana.mp4')}`,
      `  Sheet row 4 done, file changed: ${join(dir, 'out', '3 - Bo.mp4')}`,
    ]);
    expect(lost.out.at(-1)).toMatch(/^2 videos are not on disk as saved: studio download --missing/);
    const json = await cli(['campaign', 'status', 'out', '--json', '--data-dir', data]);
    const rows = (JSON.parse(json.out.join('\n')) as { rows: { row: number; copy: string | null }[] }).rows;
    expect(rows.map((r) => [r.row, r.copy])).toEqual([
      [2, 'missing'],
      [3, null],
      [4, 'changed'],
      [5, null],
      [6, null],
    ]);
  }, 240_000);

  it('killed half way, goes on when run again: no row step is sent twice, and a create cut off by the kill is named, not re-sent', async () => {
    const data = join(dir, 'killed');
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    const logo = join(dir, 'logo.png');
    if (!existsSync(logo)) writeLogo(logo);
    writeFileSync(
      join(dir, 'many.csv'),
      [
        'First name,company,voice,avatar,logo',
        ...NAMES.slice(0, KILLED_ROWS).map((n) => `${n},Co,Ava,SandboxBen,logo.png`),
      ].join('\n'),
    );
    const args = [
      'campaign',
      'run',
      join(dir, 'greeting.json'),
      join(dir, 'many.csv'),
      '--out',
      join(dir, 'many'),
      '--yes',
      '--concurrency',
      '2',
      '--data-dir',
      data,
    ];
    /** Every step the ledger holds a job for that was not refused before anything was made. */
    const sentPerStep = () => {
      const counts = new Map<string, number>();
      for (const job of openLedger(data).loadAll()) {
        const p = job.purpose;
        if (p?.type !== 'campaign-row' || (job.phase === 'failed' && job.remoteId === null)) continue;
        const key = `${p.row}:${p.step}:${p.sceneId ?? ''}:${p.take}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    };
    await killCliAfterSubmits(args, 3, 'the campaign');
    const result = await cli([...args, '--json']);
    expect([...sentPerStep().values()].every((n) => n === 1)).toBe(true);
    const rows = (JSON.parse(result.out.join('\n')) as { rows: { state: string; problems: string[] }[] }).rows;
    // A create on its way when the process died may or may not exist at the service, which offers no way
    // to ask: its row is not sent again (that could pay twice), it is named, and the exit status says so.
    const unknown = rows.filter((r) => r.state === 'failed');
    for (const row of unknown) expect(row.problems[0]).toMatch(/may or may not have been made/);
    // At most as many as new rows may send their first create at once (the pacer's bound): the rest are made.
    expect(unknown.length).toBeLessThanOrEqual(NEW_ROWS_IN_LINE);
    expect(rows.filter((r) => r.state === 'done')).toHaveLength(KILLED_ROWS - unknown.length);
    expect(result.code).toBe(unknown.length === 0 ? EXIT.ok : EXIT.failed);
    expect(readdirSync(join(dir, 'many')).filter((n) => n.endsWith('.mp4'))).toHaveLength(KILLED_ROWS - unknown.length);
  }, 240_000);
});
