import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../electron/cli/index';
import { PAID_ACTIONS } from '../../../electron/common/jobs/cost-model';
import { JOB_KINDS } from '../../../electron/common/jobs/kinds';

// The tables of job kinds that live outside the code the registry (electron/common/jobs/kinds.ts) can
// reach: the command line's and the docs'. Each names the kind and the table it is missing from.

describe('the command line makes every kind of paid job', () => {
  it('has a `studio` command that makes each kind of the registry (and the live session)', () => {
    for (const action of PAID_ACTIONS)
      expect(
        commands.filter((c) => c.makes?.includes(action)).map((c) => c.name),
        `no studio command makes "${action}": add one in electron/cli/commands with makes: ['${action}']`,
      ).not.toEqual([]);
  });
});

describe('the docs name every kind', () => {
  it('docs/library.md lists every kind jobs.submit takes', () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'library.md'), 'utf8');
    const from = page.indexOf('`jobs.submit(');
    const sentence = page.slice(from, page.indexOf(':\n', from));
    expect(from, 'docs/library.md no longer says what jobs.submit takes').toBeGreaterThan(-1);
    for (const kind of JOB_KINDS)
      expect(
        sentence.includes(`\`${kind}\``),
        `docs/library.md does not name the job kind "${kind}" where it lists what jobs.submit takes`,
      ).toBe(true);
  });
});
