import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';

const dir = mkdtempSync(join(tmpdir(), 'studio-data-folder-cli-'));
// A callback body as the service posts it (its seal is beside the point here).
writeFileSync(
  join(dir, 'callback.json'),
  JSON.stringify({ signature: 's', dataEncrypt: 'd', timestamp: 1, nonce: 'n' }),
);
// A video (any bytes: the data folder is looked at before it is read) and its captions beside it.
writeFileSync(join(dir, 'clip.mp4'), 'not read');
writeFileSync(join(dir, 'clip.srt'), '1\n00:00:00,000 --> 00:00:01,000\nHello.\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One command line run here, with `env` as its whole environment. */
async function run(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: dir });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The commands that answer from a data folder's records, as a nightly script would run them. */
const READERS: readonly string[][] = [
  ['jobs', 'list', '--json'],
  ['jobs', 'show', 'abc', '--json'],
  ['jobs', 'wait', 'abc', '--json'],
  ['download', '--missing', '--json'],
  ['download', '--all', '--out', 'saved', '--json'],
  ['campaign', 'status', 'saved', '--json'],
];

describe('a data folder that is not one', () => {
  it('a mistyped path exits 4 naming it, and nothing is created there', async () => {
    const typo = join(dir, 'Avatar Stduio');
    for (const argv of READERS) {
      const result = await run([...argv, '--data-dir', typo]);
      expect(result.code, argv.join(' ')).toBe(EXIT.unavailable);
      expect(JSON.parse(result.out), argv.join(' ')).toEqual({
        error: {
          code: 'unavailable',
          message: expect.stringContaining(`${typo} (named by --data-dir) does not exist`),
        },
      });
      expect(existsSync(typo), argv.join(' ')).toBe(false);
    }
    expect(existsSync(join(dir, 'saved'))).toBe(false);

    // Named by the environment it is the same answer, and the words say where the name came from.
    const fromEnv = await run(['jobs', 'list'], { STUDIO_DATA_DIR: typo });
    expect(fromEnv.code).toBe(EXIT.unavailable);
    expect(fromEnv.out).toBe('');
    expect(fromEnv.err).toContain(`The data folder ${typo} (named by STUDIO_DATA_DIR) does not exist`);
    expect(existsSync(typo)).toBe(false);

    // A callback cannot be verified with a sandbox key made up for the occasion: none is written.
    const decode = await run(['webhook', 'decode', 'callback.json', '--data-dir', typo]);
    expect(decode.code).toBe(EXIT.failed);
    expect(decode.err).toContain(`The data folder ${typo} (named by --data-dir) has no sandbox key`);
    expect(existsSync(typo)).toBe(false);

    // Listing the templates names the starters and makes no folder for the saved ones.
    const templates = await run(['templates', 'list', '--json', '--data-dir', typo]);
    expect(templates.code, templates.err).toBe(EXIT.ok);
    expect((JSON.parse(templates.out) as { templates: { starter: boolean }[] }).templates.length).toBeGreaterThan(0);
    expect(existsSync(typo)).toBe(false);
  });

  it('a file in its place exits 4 saying it is a file, for readers and for commands that may start a folder', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'not a studio');
    const others = [
      ['tts', '--text', 'Hello.', '--voice', 'sandbox_ava', '--yes', '--json'],
      ['templates', 'list', '--json'],
      ['webhook', 'decode', 'callback.json', '--json'],
      ['captions', 'burn', 'clip.mp4', '--json'],
    ];
    for (const argv of [...READERS, ...others]) {
      const result = await run([...argv, '--data-dir', file]);
      expect(result.code, argv.join(' ')).toBe(EXIT.unavailable);
      expect(JSON.parse(result.out).error.message, argv.join(' ')).toContain(`${file} (named by --data-dir) is a file`);
    }
    const below = await run(['jobs', 'list', '--data-dir', join(file, 'data')]);
    expect(below.code).toBe(EXIT.unavailable);
    expect(below.err).toContain('part of its path is a file');
    expect(readFileSync(file, 'utf8')).toBe('not a studio');
  });

  it('a folder with no studio records in it is not a data folder: exit 4, and it is left as it was', async () => {
    const other = join(dir, 'Documents');
    mkdirSync(other);
    writeFileSync(join(other, 'letter.txt'), 'Dear editor');
    for (const argv of READERS) {
      const result = await run([...argv, '--data-dir', other]);
      expect(result.code, argv.join(' ')).toBe(EXIT.unavailable);
      expect(JSON.parse(result.out).error.message, argv.join(' ')).toContain(
        `${other} (named by --data-dir) holds no studio records`,
      );
    }
    expect(readdirSync(other)).toEqual(['letter.txt']);

    // Once it holds a studio's ledger it is one: no jobs is then the truth (JSON Lines: no line).
    mkdirSync(join(other, 'jobs'));
    const listed = await run(['jobs', 'list', '--json', '--data-dir', other]);
    expect(listed.code, listed.err).toBe(EXIT.ok);
    expect(listed.out).toBe('');
  }, 60_000);
});
