import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignView } from '@common/bridge/campaigns';
import { campaignPrice } from '@common/campaign/price';
import { runCli } from '../../../electron/cli/index';
import { openStudio } from '../../../electron/cli/cli-host';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { campaignRequest, readCampaignInput } from '../../../electron/cli/commands/campaign-session';
import { createdPerStep, smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';

/**
 * Never pay twice, never overwrite without asking, on the whole host as the studio and the command line
 * compose it (its record of copies included), against the sandbox of the data folder.
 */

const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-reuse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const io = (): CliIo & { out: (t: string) => void; lines: { out: string[]; err: string[] } } => {
  const lines = { out: [] as string[], err: [] as string[] };
  return { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: dir, lines };
};

async function cli(args: string[]) {
  const at = io();
  const code = await runCli(args, at);
  return { code, ...at.lines };
}

const jobsSent = (data: string) => [...createdPerStep(data).values()].reduce((a, b) => a + b, 0);

/** Every video in the folder with its modification time and content hash. */
function videos(out: string): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const name of readdirSync(out)
    .filter((n) => n.endsWith('.mp4'))
    .sort())
    seen[name] = `${statSync(join(out, name)).mtimeMs}:${createHash('sha256')
      .update(readFileSync(join(out, name)))
      .digest('hex')}`;
  return seen;
}

function manifest(out: string): Record<string, string>[] {
  return Papa.parse<Record<string, string>>(readFileSync(join(out, 'manifest.csv'), 'utf8').replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data;
}

function sheet(name: string, people: readonly string[]): void {
  writeFileSync(
    join(dir, name),
    [
      'First name,company,voice,avatar,logo,email',
      ...people.map((p) => `${p},Acme,Ava,SandboxBen,logo.png,${p.toLowerCase()}@example.com`),
    ].join('\n'),
  );
}

/**
 * A new campaign started as the Campaigns page starts one (no key: a campaign of its own, whatever the
 * folder holds), on the host the command line composes; answers once it has ended.
 */
async function studioCampaign(data: string, rows: string, out: string, extra: { existing?: 'rename' } = {}) {
  const at = io();
  const args = { positional: ['greeting.json', rows], flags: { '--data-dir': data } };
  const studio = await openStudio(args, at, 'writes');
  try {
    const request = {
      ...(await campaignRequest(studio, await readCampaignInput(args, at), args, { outDir: join(dir, out) })),
      ...extra,
    };
    const check = await studio.call('campaigns.check', request);
    let ended: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (ended = resolve));
    let id = '';
    const stop = studio.on('campaigns.changed', (summary) => {
      if (summary.id === id && summary.state !== 'running') ended();
    });
    let view: CampaignView;
    try {
      // The answer names the price the question showed (the sandbox publishes its prices); a run with
      // nothing left to pay for has no question.
      const quote = await studio.call('campaigns.quote', request).catch((error: Error) => {
        if (/Nothing is left to pay for/.test(error.message)) return null;
        throw error;
      });
      const price = quote && campaignPrice(quote);
      view = await studio.call('campaigns.create', request, {
        by: 'user',
        credits: price?.published ? price.credits : null,
      });
      id = view.id;
      if ((await studio.call('campaigns.get', id)).state === 'running') await finished;
    } finally {
      stop();
    }
    return { check, view: await studio.call('campaigns.get', id) };
  } finally {
    await studio.close();
  }
}

beforeAll(() => {
  writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
  writeLogo(join(dir, 'logo.png'));
});

describe('the same sheet run again into the same folder', () => {
  it('as a new campaign in the studio and from the command line: 0 jobs, 0 files written, a manifest of the folder with the kept columns', async () => {
    const data = join(dir, 'data');
    sheet('people.csv', ['Ana', 'Bo']);
    const first = await studioCampaign(data, 'people.csv', 'out');
    expect(first.view.rows.map((r) => r.state)).toEqual(['done', 'done']);
    const sent = jobsSent(data);
    expect(sent).toBe(6);
    const before = videos(join(dir, 'out'));
    expect(Object.keys(before)).toEqual(['1 - Ana.mp4', '2 - Bo.mp4']);

    // A new campaign of the same sheet: every row is in the folder, intact, so it is kept.
    const second = await studioCampaign(data, 'people.csv', 'out');
    expect(second.check.kept).toBe(2);
    expect(second.view.id).not.toBe(first.view.id);
    expect(second.view.rows.map((r) => [r.state, r.problems])).toEqual([
      ['done', ['made earlier, kept']],
      ['done', ['made earlier, kept']],
    ]);
    expect(jobsSent(data)).toBe(sent);
    expect(videos(join(dir, 'out'))).toEqual(before);

    // The command line's campaign of that folder (it never saw the studio's) does the same.
    const again = await cli([
      'campaign',
      'run',
      'greeting.json',
      'people.csv',
      '--out',
      'out',
      '--yes',
      '--data-dir',
      data,
    ]);
    expect(again.code).toBe(EXIT.ok);
    expect(again.err.join('\n')).toContain('2 rows are in');
    expect(jobsSent(data)).toBe(sent);
    expect(videos(join(dir, 'out'))).toEqual(before);

    // The manifest keeps the column the page keeps for it (email), and names every file in the folder.
    const lines = manifest(join(dir, 'out'));
    expect(lines.map((l) => [l.sheet_row, l['First name'], l.email, l.status, l.file])).toEqual([
      ['2', 'Ana', 'ana@example.com', 'done', '1 - Ana.mp4'],
      ['3', 'Bo', 'bo@example.com', 'done', '2 - Bo.mp4'],
    ]);
  }, 300_000);

  it('never writes over a file it did not make without the choice, and a renamed row is its own the next time', async () => {
    const data = join(dir, 'foreign-data');
    sheet('foreign.csv', ['Cy', 'Di']);
    rmSync(join(dir, 'foreign'), { recursive: true, force: true });
    execFileSync('mkdir', ['-p', join(dir, 'foreign')]);
    const theirs = join(dir, 'foreign', '1 - Cy.mp4');
    writeFileSync(theirs, 'a video the user made by hand');
    const run = (more: string[] = []) =>
      cli([
        'campaign',
        'run',
        'greeting.json',
        'foreign.csv',
        '--out',
        'foreign',
        '--yes',
        '--data-dir',
        data,
        ...more,
      ]);

    const refused = await run();
    expect(refused.code).toBe(EXIT.refused);
    // Every row named, in the page's words (takenFileLines).
    expect(refused.err.join('\n')).toMatch(
      /1 row would write over a file in .*foreign that is not its own video:\n {2}Sheet row 2: "1 - Cy\.mp4"/,
    );
    expect(refused.err.join('\n')).toMatch(/Pass --existing skip, replace or rename/);
    expect(jobsSent(data)).toBe(0);
    // The studio's start refuses it the same way, naming the file.
    await expect(studioCampaign(data, 'foreign.csv', 'foreign')).rejects.toThrow(/"1 - Cy\.mp4" \(sheet row 2\)/);
    expect(jobsSent(data)).toBe(0);

    // Skipped, the row is left out and its file as it was; the other row is made.
    const skipped = await run(['--existing', 'skip', '--json']);
    const rows = (JSON.parse(skipped.out.join('\n')) as { rows: { state: string }[] }).rows;
    expect(rows.map((r) => r.state)).toEqual(['invalid', 'done']);
    expect(readFileSync(theirs, 'utf8')).toBe('a video the user made by hand');
    expect(jobsSent(data)).toBe(3);

    const renamed = await run(['--existing', 'rename']);
    expect(renamed.code).toBe(EXIT.ok);
    expect(readFileSync(theirs, 'utf8')).toBe('a video the user made by hand');
    expect(existsSync(join(dir, 'foreign', '1 - Cy (2).mp4'))).toBe(true);
    const sent = jobsSent(data);
    expect(sent).toBe(6);
    const made = videos(join(dir, 'foreign'));

    // Run again without a choice: the renamed video is this row's own, so nothing is asked or sent.
    const again = await run();
    expect(again.code).toBe(EXIT.ok);
    expect(jobsSent(data)).toBe(sent);
    expect(videos(join(dir, 'foreign'))).toEqual(made);
    expect(manifest(join(dir, 'foreign')).map((l) => [l.status, l.file])).toEqual([
      ['done', '1 - Cy (2).mp4'],
      ['done', '2 - Di.mp4'],
    ]);
  }, 300_000);
});
