import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { killCliAfterSubmits } from './cli-io';
import { openLedger } from '../../../electron/services/records/open-ledger';

const root = join(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'studio-tts-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  const lines = { out: [] as string[], err: [] as string[] };
  const io: CliIo = { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: dir };
  return runCli(args, io).then((code) => ({ code, ...lines }));
}

/** Jobs in a data folder's ledger per batch row (a row sent twice has two). */
function jobsPerRow(dataDir: string): number[] {
  const counts: number[] = [];
  for (const job of openLedger(dataDir).loadAll()) {
    if (job.purpose?.type === 'batch-row') counts[job.purpose.row] = (counts[job.purpose.row] ?? 0) + 1;
  }
  return counts;
}

describe('studio tts-batch', () => {
  it('sends the good rows, names the bad ones, saves every voiceover and the manifest; refused rows fail the run only with --strict', async () => {
    const csv = join(dir, 'spots.csv');
    writeFileSync(csv, 'text,name\nFirst spot.,one\n,empty\nSecond spot.,two\n');
    // Paid: without --yes (and no one at a terminal to answer) it says the total and sends nothing.
    const unasked = await cli([
      'tts-batch',
      'spots.csv',
      '--out-dir',
      'out',
      '--voice',
      'Ava',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(unasked.code).toBe(EXIT.refused);
    // The built-in sandbox publishes its prices, so the question names the total.
    expect(unasked.err.join('\n')).toMatch(
      /2 × speech on "Sandbox": 2 credits \(2 × speech: 2 credits in total\.\)[\s\S]*Nothing was sent/,
    );
    expect(jobsPerRow(join(dir, 'data'))).toEqual([]);
    // The voice by its name, as people write it.
    const result = await cli([
      'tts-batch',
      '--yes',
      'spots.csv',
      '--out-dir',
      'out',
      '--voice',
      'Ava',
      '--data-dir',
      join(dir, 'data'),
      '--json',
    ]);
    expect(result.err.join('\n')).toContain('Sheet row 3 is not sent');
    expect(result.code).toBe(0);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['1-one.mp3', '3-two.mp3', 'manifest.csv']);
    expect(JSON.parse(result.out.join('\n')).counts).toEqual({ completed: 2, invalid: 1 });
    const again = await cli([
      'tts-batch',
      '--yes',
      'spots.csv',
      '--out-dir',
      'out',
      '--voice',
      'Ava',
      '--data-dir',
      join(dir, 'data'),
      '--strict',
    ]);
    expect(again.code).toBe(1);
    expect(jobsPerRow(join(dir, 'data'))).toEqual([1, undefined, 1]);

    // Edited since: the changed row and the new one are sent, the unchanged one is not.
    writeFileSync(csv, 'text,name\nFirst spot.,one\n,empty\n"Second spot, new take.",two\nThird spot.,three\n');
    // Those are two new paid jobs: without --yes the total is said and nothing is sent.
    const unaskedAgain = await cli([
      'tts-batch',
      'spots.csv',
      '--out-dir',
      'out',
      '--voice',
      'Ava',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(unaskedAgain.code).toBe(EXIT.refused);
    expect(unaskedAgain.err.join('\n')).toMatch(/2 × speech on [\s\S]*Nothing was sent/);
    expect(jobsPerRow(join(dir, 'data'))).toEqual([1, undefined, 1]);
    const edited = await cli([
      'tts-batch',
      '--yes',
      'spots.csv',
      '--out-dir',
      'out',
      '--voice',
      'Ava',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(edited.err.join('\n')).toContain('1 edited row sent again');
    expect(edited.code).toBe(0);
    expect(jobsPerRow(join(dir, 'data'))).toEqual([1, undefined, 2, 1]);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['1-one.mp3', '3-two.mp3', '4-three.mp3', 'manifest.csv']);
  }, 120_000);

  it('reads an .xlsx and Excel\u2019s Windows-1252 CSV as they are', async () => {
    const fixtures = join(root, 'test', 'fixtures', 'sheets');
    const xlsx = await cli([
      'tts-batch',
      '--yes',
      join(fixtures, 'excel-spots.xlsx'),
      '--out-dir',
      'xlsx-out',
      '--data-dir',
      join(dir, 'xlsx'),
      '--json',
    ]);
    const rows = (JSON.parse(xlsx.out.join('\n')) as { rows: { text: string; voiceId: string; state: string }[] }).rows;
    expect(rows.map((r) => [r.text.slice(0, 16), r.voiceId, r.state])).toEqual([
      ['Frühlingsangebot', 'sandbox_ava', 'completed'],
      ['Café crème, naïv', 'sandbox_hugo', 'completed'],
    ]);
    const binary = await cli([
      'tts-batch',
      '--yes',
      join(fixtures, 'song-renamed.csv'),
      '--out-dir',
      'x',
      '--data-dir',
      join(dir, 'xlsx'),
    ]);
    expect(binary.code).toBe(2);
    expect(binary.err.join('\n')).toContain('This is an MP3 sound, not a spreadsheet');
  }, 120_000);

  it('killed half way, goes on when run again and creates no row twice', async () => {
    const csv = join(dir, 'many.csv');
    writeFileSync(csv, ['text', ...Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of the batch.`)].join('\n'));
    const dataDir = join(dir, 'killed');
    const args = [
      'tts-batch',
      '--yes',
      csv,
      '--out-dir',
      join(dir, 'many'),
      '--voice',
      'sandbox_ava',
      '--concurrency',
      '4',
      '--data-dir',
      dataDir,
    ];
    await killCliAfterSubmits(args, 3, 'the batch');
    const result = await cli([...args, '--json']);
    expect(jobsPerRow(dataDir)).toEqual(Array(12).fill(1));
    // A row whose create was on its way when the process died may or may not exist at the service, which
    // offers no way to ask: it is not sent again (that could pay twice) and the exit status says so. At
    // most the batch's concurrency (4) can be on their way.
    const { counts } = JSON.parse(result.out.join('\n')) as { counts: Record<string, number> };
    const unknown = counts['outcome-unknown'] ?? 0;
    expect(unknown).toBeLessThanOrEqual(4);
    expect(counts.completed).toBe(12 - unknown);
    expect(result.code).toBe(unknown === 0 ? 0 : 1);
    expect(readdirSync(join(dir, 'many')).filter((n) => n.endsWith('.mp3'))).toHaveLength(12 - unknown);
  }, 120_000);
});
