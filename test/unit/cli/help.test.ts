import { describe, expect, it } from 'vitest';
import { HELP_COLUMNS, commands, runCli, usage } from '../../../electron/cli/index';

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
    for (const usageText of ['export-body PROJECT.json [--target avatar-video|talking-avatar]', '[--check-media]', 'jobs wait ID [--timeout SECONDS] [--json]', '--verbose log what happens on stderr']) {
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

  it('prints every command\'s own help, and a group\'s commands, with exit 0', async () => {
    for (const command of commands) {
      const shown = await run([...command.name.split(' '), '--help']);
      expect(shown.code, command.name).toBe(0);
      expect(shown.out).toContain(`Usage: studio ${command.name}`);
      for (const option of command.options ?? []) expect(shown.out, `${command.name} ${option.name}`).toContain(option.name);
    }
    const live = await run(['live', '--help']);
    expect(live.code).toBe(0);
    expect(live.out).toMatch(/create[\s\S]*update[\s\S]*close/);
  });

  it('refuses an unknown option with a suggestion, and a value outside its choices, before running anything', async () => {
    const typo = await run(['character-swap', '--image', 'a.png', '--video', 'b.mp4', '--resoluton', '1080p', '--yes', '--data-dir', '/nonexistent/never-made']);
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
