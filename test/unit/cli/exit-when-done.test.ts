// A command that printed it was done and then never exited (a queued run's pause, with a connection left
// retrying a Redis that had gone) is ended after a grace, naming what held it; one that holds nothing is
// never ended early by the grace (its timer does not keep the process alive).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitWhenDone } from '../../../electron/cli/exit-when-done';
import { until } from '../../wait';

const held: NodeJS.Timeout[] = [];
afterEach(() => held.splice(0).forEach(clearInterval));

describe('a finished command', () => {
  it('is ended after the grace when something still holds it, saying what', async () => {
    const exitCode = process.exitCode;
    held.push(setInterval(() => undefined, 60_000));
    const said: string[] = [];
    let ended: number | null = null;
    try {
      exitWhenDone(5, { say: (line) => said.push(line), exit: (code) => (ended = code), graceMs: 10 });
      await until('the command ended', () => ended !== null);
    } finally {
      process.exitCode = exitCode;
    }
    expect(ended).toBe(5);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^The command was done but did not exit \(still open: .*Timeout.*\); ending it\.$/);
  });

  it('exits by itself, with its code and without a word, when nothing holds it', () => {
    const script = `import { exitWhenDone } from ${JSON.stringify(join(import.meta.dirname, '../../../electron/cli/exit-when-done.ts'))};
exitWhenDone(3, { graceMs: 60_000 });`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status).toBe(3);
    expect(run.stderr).toBe('');
  });
});
