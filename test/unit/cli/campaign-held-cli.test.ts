// `studio campaign` with a row whose value is far too long for its fixed scene: the check names it held,
// the run makes the others, pays nothing for it and ends (not finished) with it listed; the same folder
// run again once the cell is fitted makes just that row.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { createdPerStep, smallTemplate } from '../campaign/campaign-harness';
import { runIn, writeLogo } from './cli-io';

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-held-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runIn(dir, args);

/** A logo file beside the spreadsheet, as a user gives one. */
const LOGO = 'logo.png';
const sheet = (company: string) =>
  [
    'First name,company,voice,avatar,logo',
    `Ana,Acme,Ava,SandboxBen,${LOGO}`,
    `Bo,"${company}",Ava,SandboxBen,${LOGO}`,
  ].join('\n');

describe('studio campaign and a row that does not fit', () => {
  it('holds it at the check, makes the others without paying for it, and makes it once fitted', async () => {
    const data = join(dir, 'data');
    const { project } = smallTemplate();
    // Fixed scenes, long enough for a short greeting.
    const scenes = project.scenes.map((s, i) => ({ ...s, durationMs: i === 0 ? 4000 : 3000, followVoice: false }));
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify({ ...project, scenes }));
    writeFileSync(join(dir, 'prospects.csv'), sheet('Acme Holdings International '.repeat(40).trim()));
    writeLogo(join(dir, LOGO));
    const run = (extra: string[] = []) =>
      cli(['campaign', 'run', 'greeting.json', 'prospects.csv', '--out', 'out', '--yes', '--data-dir', data, ...extra]);

    const checked = await cli(['campaign', 'check', 'greeting.json', 'prospects.csv', '--data-dir', data]);
    expect(checked.code).toBe(EXIT.refused);
    const said = checked.err.join('\n');
    expect(said).toContain('2 rows, 1 can be sent, 1 held until they fit.');
    expect(said).toMatch(/Sheet row 3 held, not sent until it fits: \{\{company\}\} is 1,119 characters long/);
    expect(said).toMatch(/Scene 1 \(hello\): the voice runs about \d+\.\d s, the scene is 4\.0 s/);

    const first = await run();
    expect(first.code).toBe(EXIT.failed);
    expect(first.err.join('\n')).toMatch(/Sheet row 3 held: \{\{company\}\} is 1,119 characters long/);
    expect(first.err.join('\n')).toContain('1 row is held, not paid for: fit it');
    expect(readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.mp4'))).toEqual(['1 - Ana.mp4']);
    expect([...createdPerStep(data).keys()].filter((key) => key.startsWith('1:'))).toEqual([]);
    const status = await cli(['campaign', 'status', 'out', '--data-dir', data]);
    expect(status.out[0]).toBe('Campaign "prospects.csv" (paused): 1 done, 1 held of 2 rows');

    // The cell fitted: the same folder again makes row 2 only.
    writeFileSync(join(dir, 'prospects.csv'), sheet('Acme Holdings'));
    const second = await run();
    expect(second.code).toBe(EXIT.ok);
    expect(readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.mp4'))).toEqual(['1 - Ana.mp4', '2 - Bo.mp4']);
    expect([...createdPerStep(data).values()]).toEqual([1, 1, 1, 1, 1, 1]);
  }, 240_000);
});
