import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { optionsOf } from '../../../electron/cli/parser';
import { HELP_COLUMNS, callerFolder, commands, runCli, usage } from '../../../electron/cli/index';

describe('studio --help', () => {
  const lines = usage().split('\n');

  it('fits a terminal: no line wider than 80 columns, no summary padded out to the longest usage', () => {
    expect(HELP_COLUMNS).toBe(80);
    const wide = lines.filter((l) => l.length > HELP_COLUMNS);
    expect(wide).toEqual([]);
    // A run of spaces inside a line is padding; only the global flags' column has any.
    expect(lines.filter((l) => /\S {3,}\S/.test(l) && !/^ {2}--/.test(l) && !l.startsWith('Usage:'))).toEqual([]);
  });

  it('still names every command with its whole usage', () => {
    const text = lines.map((l) => l.trim()).join(' ');
    for (const usageText of [
      'export-body PROJECT.json [--target avatar-video|talking-avatar]',
      '[--check-media]',
      'jobs wait ID [--timeout SECONDS] [--json]',
      '--verbose log what happens on stderr',
    ]) {
      expect(text.replace(/\s+/g, ' ')).toContain(usageText);
    }
  });
});

describe('studio <command> --help and mistakes on the command line', () => {
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd: '/' });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it("prints every command's own help, and a group's commands, with exit 0", async () => {
    for (const command of commands) {
      const shown = await run([...command.name.split(' '), '--help']);
      expect(shown.code, command.name).toBe(0);
      expect(shown.out).toContain(`Usage: studio ${command.name}`);
      for (const option of command.options ?? [])
        expect(shown.out, `${command.name} ${option.name}`).toContain(option.name);
    }
    const live = await run(['live', '--help']);
    expect(live.code).toBe(0);
    expect(live.out).toMatch(/create[\s\S]*update[\s\S]*close/);
  });

  it('refuses an unknown option with a suggestion, and a value outside its choices, before running anything', async () => {
    const typo = await run([
      'character-swap',
      '--image',
      'a.png',
      '--video',
      'b.mp4',
      '--resoluton',
      '1080p',
      '--yes',
      '--data-dir',
      '/nonexistent/never-made',
    ]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("unknown option '--resoluton'");
    expect(typo.err).toContain('(Did you mean --resolution?)');
    expect(typo.err).toContain('Nothing was sent');
    const unknownCommand = await run(['avatars', 'lst']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.err).toContain('(Did you mean list?)');
    const range = await run(['tts-batch', 'rows.csv', '--out-dir', 'x', '--concurrency', '0']);
    expect(range.code).toBe(2);
    expect(range.err).toContain('--concurrency must be a whole number from 1 to 32');
  });
});

describe('--json as scripts use it', () => {
  const run = async (argv: string[], env: Record<string, string | undefined> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: '/' });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  let data = '';
  beforeAll(() => {
    data = mkdtempSync(join(tmpdir(), 'cli-json-'));
    // A data folder with an empty ledger: commands that read its jobs open only a real data folder.
    mkdirSync(join(data, 'jobs'));
  });
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it('every command takes --json, and a refused command line answers JSON on stdout with exit 2', async () => {
    for (const command of commands) {
      expect(
        optionsOf(command).map((o) => o.name),
        command.name,
      ).toContain('--json');
      const bad = await run([...command.name.split(' '), '--json', '--bogus']);
      expect(bad.code, command.name).toBe(EXIT.usage);
      expect(JSON.parse(bad.out), command.name).toEqual({
        error: {
          code: 'usage',
          message: expect.stringMatching(/unknown option '--bogus'|missing required argument|required option/),
        },
      });
    }
  });

  it('a failure while running is JSON too, and an empty result is an empty list', async () => {
    const unknownJob = await run(['jobs', 'show', 'zzzz', '--json', '--data-dir', data]);
    expect(unknownJob.code).toBe(EXIT.usage);
    expect(JSON.parse(unknownJob.out)).toEqual({
      error: { code: 'usage', message: expect.stringContaining('No job matches "zzzz"') },
    });
    const unreadable = await run(['webhook', 'decode', join(data, 'no-such-body.json'), '--json', '--data-dir', data]);
    expect(unreadable.code).toBe(EXIT.failed);
    expect(JSON.parse(unreadable.out).error).toMatchObject({
      code: 'failed',
      message: expect.stringContaining('no-such-body.json'),
    });
    const none = await run(['download', '--since', '1d', '--out', join(data, 'out'), '--json', '--data-dir', data]);
    expect(none.code).toBe(EXIT.ok);
    expect(JSON.parse(none.out)).toEqual([]);
  });

  it('reads relative paths against the folder npm was called from', () => {
    expect(callerFolder({ npm_lifecycle_event: 'cli', INIT_CWD: '/home/me/project' }, '/repo')).toBe(
      '/home/me/project',
    );
    expect(callerFolder({ INIT_CWD: '/stale' }, '/here')).toBe('/here');
  });
});
