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

  it('stopped by its user, is ended soon after its orderly close with its own code, without a word', () => {
    // Ctrl-C heard (stop-signals.ts, its own last resort a minute off), the command closed and returned 5,
    // and a socket still closing on a Redis that has gone holds the process (ioredis's 2 s did, past the
    // 5 s a stop promises on a busy machine): it ends with 5, not the last resort's failure.
    const here = (file: string) => JSON.stringify(join(import.meta.dirname, '../../../electron', file));
    const script = `import { exitWhenDone } from ${here('cli/exit-when-done.ts')};
import { stopSignals } from ${here('services/host/stop-signals.ts')};
setInterval(() => undefined, 60_000);
const signals = stopSignals({ say: console.error, what: 'The command', limitMs: 60_000, code: 1 });
process.kill(process.pid, 'SIGINT');
await signals.asked;
signals.dispose();
exitWhenDone(5);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status).toBe(5);
    expect(run.stderr).toBe('');
  });
});
