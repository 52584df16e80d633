// Issue 67: the card said a queue's password "is kept only while the studio runs, never written down"
// while docs/scale-out.md said the vault keeps it. The words now come from one place, true of each host
// (its vault persistent or not), and the page says the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { passwordKept } from '../../../electron/services/rows/queue/queue-password';
import { EnvVault } from '../../../electron/services/connections/env-vault';

const page = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'scale-out.md'), 'utf8').replace(
  /\s+/g,
  ' ',
);

describe("where a queue's password is kept", () => {
  it('is said in docs/scale-out.md as the card says it, for both kinds of vault', () => {
    for (const persistent of [true, false]) {
      const words = passwordKept(persistent).split(', and has none')[0];
      expect(page).toContain(words);
    }
  });

  it("is true of the web host's and the command line's vault: it keeps nothing on disk", () => {
    expect(new EnvVault({}).persistent).toBe(false);
  });
});
