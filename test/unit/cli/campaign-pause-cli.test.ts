// `studio campaign run` when the account runs out: it says the campaign paused, why and what is left,
// exits 5 (paused) with a one-line hint, fails no row; after a top-up the same command goes on and
// finishes, creating no row step twice.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { startBuiltInSandbox } from '../../../electron/emulator/built-in';
import { createdPerStep, smallTemplate } from '../campaign/campaign-harness';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { runIn } from './cli-io';

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-pause-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runIn(dir, args);

/** Changes the balance of a data folder's own sandbox (it keeps its records and its port between runs). */
async function withSandbox<T>(
  dataDir: string,
  change: (sandbox: Awaited<ReturnType<typeof startBuiltInSandbox>>) => T,
) {
  const sandbox = await startBuiltInSandbox(dataDir);
  try {
    return change(sandbox);
  } finally {
    await sandbox.close();
  }
}

describe('studio campaign run at the balance', () => {
  it('pauses, exits 5 with the reason and a hint, fails no row, and goes on after a top-up', async () => {
    const data = join(dir, 'data');
    // Four rows of two voiceovers (1 credit each) and a video (10): 48 credits; the account has 15.
    const url = await withSandbox(data, (sandbox) => {
      sandbox.setCredits(15);
      return sandbox.url;
    });
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    const logo = `${url}/sandbox/sandbox-backdrop.png`;
    writeFileSync(
      join(dir, 'prospects.csv'),
      [
        'First name,company,voice,avatar,logo',
        ...['Ana', 'Bo', 'Cy', 'Di'].map((name) => `${name},Acme,Ava,SandboxBen,${logo}`),
      ].join('\n'),
    );
    const run = ['campaign', 'run', 'greeting.json', 'prospects.csv', '--out', 'out', '--yes', '--data-dir', data];

    const paused = await cli(run);
    const said = paused.err.join('\n');
    expect(paused.code).toBe(EXIT.paused);
    expect(said).toMatch(/Paused: the account ran out of credits\. \d+ rows? left.*nothing failed for it/);
    expect(said).toContain('To go on: run studio campaign run (same --out out) again.');
    expect(said).not.toMatch(/Row \d+ failed/);
    const first = createdPerStep(data);
    expect([...first.values()].every((n) => n === 1)).toBe(true);

    await withSandbox(data, (sandbox) => sandbox.topUp(1_000));
    const again = await cli([...run, '--json']);
    expect(again.code).toBe(EXIT.ok);
    expect(JSON.parse(again.out.join('\n')).counts).toEqual({ done: 4 });
    // Every step of every row made once: those made before the pause were not made again.
    const made = createdPerStep(data);
    expect(made.size).toBe(4 * 3);
    expect([...made.values()].every((n) => n === 1)).toBe(true);
    for (const [step, n] of first) expect(made.get(step)).toBe(n);
  }, 180_000);

  it('tts-batch --max-credits: a script needs no --yes; it pauses at the cap (exit 5) and goes on under a raised one', async () => {
    const data = join(dir, 'data-batch');
    writeFileSync(
      join(dir, 'lines.csv'),
      ['text', ...Array.from({ length: 10 }, (_, i) => `Line ${i + 1}.`)].join('\n'),
    );
    const batch = (cap: number) => [
      'tts-batch',
      'lines.csv',
      '--out-dir',
      'lines',
      '--voice',
      'Ava',
      '--max-credits',
      String(cap),
      '--data-dir',
      data,
    ];
    const made = () =>
      openLedger(data)
        .loadAll()
        .filter((j) => j.purpose?.type === 'batch-row' && j.remoteId !== null);

    const capped = await cli(batch(4));
    expect(capped.code).toBe(EXIT.paused);
    expect(capped.err.join('\n')).toMatch(/Paused: it reached the credits you allowed it\. \d+ rows left/);
    expect(capped.err.join('\n')).toContain(
      'To go on: raise --max-credits and run the same studio tts-batch command again.',
    );
    expect(made()).toHaveLength(4);

    const raised = await cli(batch(20));
    expect(raised.code).toBe(EXIT.ok);
    const rows = made().map((j) => (j.purpose as { row: number }).row);
    expect(rows.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i));
  }, 120_000);
});
