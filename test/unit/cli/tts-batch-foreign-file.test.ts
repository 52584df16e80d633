import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { runIn } from './cli-io';

const dir = mkdtempSync(join(tmpdir(), 'studio-tts-batch-foreign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runIn(dir, args);

describe('a batch saving into a folder by name', () => {
  it('leaves a file it did not save at a row’s name as it is, names the row, and saves the others; keeps both when asked, and the renamed file is the row’s own next time', async () => {
    writeFileSync(join(dir, 'spots.csv'), 'text,name\nFirst spot.,one\nSecond spot.,two\n');
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', '1-one.mp3'), 'recorded in the studio booth');
    const run = await cli([
      'tts-batch',
      '--yes',
      'spots.csv',
      '--out-dir',
      'out',
      '--voice',
      'Ava',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(run.code).toBe(EXIT.failed);
    expect(run.err.join('\n')).toMatch(
      /Sheet row 2: the audio could not be saved \(The folder has a file "1-one\.mp3" the studio did not save; it was left as it is/,
    );
    expect(readFileSync(join(dir, 'out', '1-one.mp3'), 'utf8')).toBe('recorded in the studio booth');
    expect(readFileSync(join(dir, 'out', '2-two.mp3')).length).toBeGreaterThan(1000);

    // Keep both: the row's audio takes a new name; run again without a choice, that file is the row's own.
    const args = [
      'tts-batch',
      '--yes',
      'spots.csv',
      '--out-dir',
      'out',
      '--voice',
      'Ava',
      '--data-dir',
      join(dir, 'data'),
    ];
    const renamed = await cli([...args, '--existing', 'rename']);
    expect(renamed.code).toBe(EXIT.ok);
    expect(readFileSync(join(dir, 'out', '1-one.mp3'), 'utf8')).toBe('recorded in the studio booth');
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['1-one (2).mp3', '1-one.mp3', '2-two.mp3', 'manifest.csv']);
    const again = await cli(args);
    expect(again.code).toBe(EXIT.ok);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['1-one (2).mp3', '1-one.mp3', '2-two.mp3', 'manifest.csv']);
    expect(readFileSync(join(dir, 'out', 'manifest.csv'), 'utf8')).toContain('1-one (2).mp3');
  }, 120_000);
});
