import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../electron/cli/index';
import { PAID_ACTIONS, type PaidAction } from '../../../electron/common/jobs/cost-model';
import { JOB_KINDS } from '../../../electron/common/jobs/kinds';

// The tables of job kinds that live outside the code the registry (electron/common/jobs/kinds.ts) can
// reach: the command line's and the docs'. Each names the kind and the table it is missing from.

/**
 * The `studio` commands that make each paid action. A command declares only that it is paid, not what
 * it makes (electron/cli/command.ts), so the list is kept here: a kind added to the registry fails to
 * compile here until it names the command that makes it, and the test below checks every name.
 */
const MADE_BY = {
  'avatar-video': ['campaign run'],
  'talking-avatar': ['campaign run', 'check-placement'],
  tts: ['tts', 'tts-batch', 'campaign run'],
  'voice-clone': ['clone'],
  lipsync: ['lipsync'],
  'character-swap': ['character-swap'],
  'avatar-upload': ['avatars upload'],
  'live-session': ['live create'],
} satisfies Record<PaidAction, readonly string[]>;

const made = MADE_BY as Partial<Record<PaidAction, readonly string[]>>;

describe('the command line makes every kind of paid job', () => {
  it('names a paid `studio` command for every kind of the registry (and the live session)', () => {
    const paid = new Set(commands.filter((c) => c.paid).map((c) => c.name));
    const known = new Set(commands.map((c) => c.name));
    for (const action of PAID_ACTIONS) {
      const names = made[action] ?? [];
      expect(
        names.length,
        `no studio command makes "${action}": add one in electron/cli/commands and name it in MADE_BY (test/unit/jobs/kind-tables.test.ts)`,
      ).toBeGreaterThan(0);
      for (const name of names) {
        expect(known.has(name), `MADE_BY names "${name}" for "${action}", and there is no such command`).toBe(true);
        expect(paid.has(name), `"${name}" makes "${action}" but is not declared paid: true`).toBe(true);
      }
    }
  });

  it('says what every paid command makes', () => {
    const named = new Set(Object.values(made).flat());
    for (const command of commands.filter((c) => c.paid))
      expect(named.has(command.name), `the paid command "${command.name}" is in no list of MADE_BY`).toBe(true);
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
