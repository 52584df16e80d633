import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';

const dir = mkdtempSync(join(tmpdir(), 'studio-tts-batch-foreign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  const lines = { out: [] as string[], err: [] as string[] };
  const io: CliIo = { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: dir };
  return runCli(args, io).then((code) => ({ code, ...lines }));
}

describe('a batch saving into a folder by name', () => {
  it('leaves a file it did not save at a row’s name as it is, names the row, and saves the others', async () => {
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
  }, 120_000);
});
