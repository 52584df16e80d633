// The pages written from code must be what their script writes today: a command, flag or bench block
// changed without `npm run docs:cli` (or by hand in the page) fails here.
import { usageLine } from '../../../electron/cli/parser';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_DOC, SANDBOX_DOC, SANDBOX_FLAGS, cliReference, sandboxFlags } from '../../../docs/generate';
import { blockOf, withBlock } from '../../../docs/markers';
import { commands } from '../../../electron/cli/index';
import { figuresBlock, withFigures } from '../../bench/figures-doc';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('generated docs', () => {
  it('docs/cli.md is what npm run docs:cli writes from the commands', () => {
    expect(read(CLI_DOC), 'run `npm run docs:cli` and commit docs/cli.md').toBe(cliReference());
    for (const command of commands) {
      expect(cliReference()).toContain(`studio ${usageLine(command)}`);
      // Every declared flag is on the page with its own help.
      for (const option of command.options ?? []) expect(cliReference()).toContain(option.help);
    }
  });

  it("docs/sandbox.md lists the sandbox's flags as its --help prints them", () => {
    expect(blockOf(read(SANDBOX_DOC), SANDBOX_FLAGS), 'run `npm run docs:cli` and commit docs/sandbox.md').toBe(
      sandboxFlags(),
    );
  });
});

describe('blocks written between markers', () => {
  const page = 'intro\n<!-- part -->\nold\n<!-- /part -->\noutro\n';

  it('replaces only the text between the markers', () => {
    const next = withBlock(page, 'part', 'new\nlines');
    expect(next).toBe('intro\n<!-- part -->\nnew\nlines\n<!-- /part -->\noutro\n');
    expect(blockOf(next, 'part')).toBe('new\nlines');
  });

  it('refuses a page without the markers, naming them', () => {
    expect(() => withBlock('no markers here', 'part', 'x')).toThrow('<!-- part -->');
  });

  it("puts a bench's printed figures in its block, and gives a new bench a section of its own", () => {
    const when = new Date('2026-11-23T21:30:00Z');
    const block = figuresBlock(
      ['  engine 2.09 requests per job'],
      when,
      '2 cores, Node 20.20.2, load average 1.0 at the start',
    );
    expect(block).toContain('Last run 2026-11-23 21:30 UTC on 2 cores');
    const doc = '# Performance\n\n## jobs\n\n<!-- bench:jobs -->\nNot run yet.\n<!-- /bench:jobs -->\n\nAfter.\n';
    const written = withFigures(doc, 'jobs', block);
    expect(blockOf(written, 'bench:jobs')).toBe(block);
    expect(written).toContain('\nAfter.\n');
    const added = withFigures(doc, 'voices', block);
    expect(blockOf(added, 'bench:voices')).toBe(block);
    expect(blockOf(added, 'bench:jobs')).toBe('Not run yet.');
  });
});
