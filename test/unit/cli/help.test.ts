import { describe, expect, it } from 'vitest';
import { HELP_COLUMNS, usage } from '../../../electron/cli/index';

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
    for (const usageText of ['export-body <project.json> [--target avatar-video|talking-avatar]', '[--check-media]', 'jobs wait <id> [--json] [--timeout SECONDS]', '--verbose log what happens on stderr']) {
      expect(text.replace(/\s+/g, ' ')).toContain(usageText);
    }
  });
});
