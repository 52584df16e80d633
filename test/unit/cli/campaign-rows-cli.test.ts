// `studio campaign run --rows`: only the sheet rows named (as the spreadsheet numbers them, blank lines
// counted) are checked, priced and made; a later run on the same folder adds others; a bad list or a
// range that holds no row is refused with what is wrong (exit 2) before anything is sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { startBuiltInSandbox } from '../../../electron/emulator/built-in';
import { createdPerStep, smallTemplate } from '../campaign/campaign-harness';
import { runIn } from './cli-io';

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-rows-cli-'));
const data = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const sandbox = await startBuiltInSandbox(data);
  const logo = `${sandbox.url}/sandbox/sandbox-backdrop.png`;
  await sandbox.close();
  writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
  // Sheet rows 2 and 3, a blank line (row 4), then rows 5 and 6: Cy is sheet row 5, the third row of data.
  const row = (name: string) => `${name},Acme,Ava,SandboxBen,${logo}`;
  writeFileSync(
    join(dir, 'prospects.csv'),
    ['First name,company,voice,avatar,logo', row('Ana'), row('Bo'), '', row('Cy'), row('Di')].join('\n'),
  );
});

const run = (...more: string[]) =>
  runIn(dir, [
    'campaign',
    'run',
    'greeting.json',
    'prospects.csv',
    '--out',
    'out',
    '--yes',
    '--data-dir',
    data,
    ...more,
  ]);

/** The rows (0-based, as jobs are keyed) the sandbox was asked to make anything for. */
const rowsSent = () => [...new Set([...createdPerStep(data).keys()].map((key) => Number(key.split(':')[0])))].sort();

describe('studio campaign run --rows', () => {
  it('refuses a list it cannot read, or a range with no row in it, naming what is wrong: nothing sent', async () => {
    const backwards = await run('--rows', '5-2');
    expect(backwards.code).toBe(EXIT.usage);
    expect(backwards.said()).toContain('--rows 5-2: 5-2 runs backwards; write it 2-5. Nothing was sent.');
    const word = await run('--rows', '2-3,,5');
    expect(word.code).toBe(EXIT.usage);
    expect(word.said()).toContain('--rows 2-3,,5: an empty part between commas');
    const zero = await run('--rows', '0-3');
    expect(zero.said()).toContain('there is no sheet row 0: the spreadsheet numbers its rows from 1');
    const letters = await run('--rows', 'first');
    expect(letters.said()).toContain('"first" is not a sheet row number');
    // Row 4 is the blank line and 40-50 past the end: neither holds a row to make.
    const empty = await run('--rows', '2,4,40-50');
    expect(empty.code).toBe(EXIT.usage);
    expect(empty.said()).toContain('prospects.csv has no row numbered 4 or 40-50');
    expect(rowsSent()).toEqual([]);
  });

  it('checks, prices and makes only the rows named, and a run with others adds them', async () => {
    const some = await run('--rows', '3-5', '--json');
    const said = some.said();
    expect(some.code, said).toBe(EXIT.ok);
    // Two voiceovers and a video a row, for Bo and Cy only.
    expect(said).toContain('prospects.csv: read as a comma-separated file in UTF-8; 2 rows, 2 can be sent.');
    expect(said).toContain('4 × tts + 2 × avatar-video on "Sandbox"');
    const answer = JSON.parse(some.out.join('\n')) as { counts: object; rows: { row: number; file: string }[] };
    expect(answer.counts).toEqual({ done: 2 });
    expect(answer.rows.map((r) => [r.row, r.file])).toEqual([
      [3, '2 - Bo.mp4'],
      [5, '3 - Cy.mp4'],
    ]);
    expect(rowsSent()).toEqual([1, 2]);

    const rest = await run('--rows', '2,6');
    expect(rest.code, rest.said()).toBe(EXIT.ok);
    expect(rest.said()).toContain('4 × tts + 2 × avatar-video on "Sandbox"');
    expect(rowsSent()).toEqual([0, 1, 2, 3]);
    // Each step of each row was made once: the rows of the first run were not sent again.
    expect([...createdPerStep(data).values()].every((n) => n === 1)).toBe(true);
  });
});
