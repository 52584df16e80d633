import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignCheckView, CampaignInput } from '@common/bridge/campaigns';
import type { PriceQuote } from '@common/bridge/jobs';
import { campaignPrice } from '@common/campaign/price';
import { openStudio } from '../../../electron/cli/cli-host';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { campaignRequest, readCampaignInput } from '../../../electron/cli/commands/campaign-session';
import { readSandboxRecords } from '../../../electron/emulator/state/store';
import { smallTemplate } from './campaign-harness';
import { writeLogo } from '../cli/cli-io';

/**
 * Next week's run of the same sheet (issue 63): rows added and 3 changed, into the same folder, as the
 * Campaigns page starts it on the host the studio composes. Only those rows' missing steps may be priced
 * and made: a changed row whose second scene says the same keeps that scene's voiceover. The proof is
 * the sandbox's own records of what it was asked to make, not the studio's ledger. Issue 63 added 10
 * rows to 20; 4 added to 10 prove the same, and every row here is a real render. Both sheets have
 * two-digit row counts: {{row}} is padded to the sheet's size, so a tenth row would rename them all.
 */
const FIRST = 10;
const ADDED = 4;

const dir = mkdtempSync(join(tmpdir(), 'studio-rerun-missing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
  writeLogo(join(dir, 'logo.png'));
});

const io = (): CliIo => ({ out: () => undefined, err: () => undefined, env: {}, cwd: dir });
const person = (i: number) => `P${String(i + 1).padStart(2, '0')}`;

/** `count` prospects; the rows in `changed` work for another company (the first scene's script only). */
function sheet(name: string, count: number, changed: readonly number[] = []): void {
  const lines = Array.from(
    { length: count },
    (_, i) => `${person(i)},${changed.includes(i) ? 'Globex' : 'Acme'},Ava,SandboxBen,logo.png`,
  );
  writeFileSync(join(dir, name), ['First name,company,voice,avatar,logo', ...lines].join('\n'));
}

/** What the sandbox was asked to make: every voiceover's script, and how many videos. */
function made(data: string): { scripts: string[]; videos: number } {
  const jobs = Object.values(readSandboxRecords(join(data, 'sandbox')).state.jobs) as {
    kind: string;
    request: Record<string, unknown>;
  }[];
  return {
    scripts: jobs.filter((j) => j.kind === 'tts').map((j) => String(j.request.input_text)),
    videos: jobs.filter((j) => j.kind === 'avatar_video').length,
  };
}

/** A campaign started as the page starts one (no key), checked, priced, made; the host closed after. */
async function pageCampaign(
  data: string,
  rows: string,
  extra: Partial<CampaignInput> = {},
): Promise<{ check: CampaignCheckView; quote: PriceQuote | null }> {
  const args = { positional: ['greeting.json', rows], flags: { '--data-dir': data } };
  const studio = await openStudio(args, io(), 'writes');
  try {
    const request = {
      ...(await campaignRequest(studio, await readCampaignInput(args, io()), args, { outDir: join(dir, 'out') })),
      ...extra,
    };
    const check = await studio.call('campaigns.check', request);
    if (check.existing.length > 0 && !extra.existing) return { check, quote: null };
    const quote = await studio.call('campaigns.quote', request);
    const price = campaignPrice(quote);
    let ended: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (ended = resolve));
    let id = '';
    const stop = studio.on('campaigns.changed', (summary) => {
      if (summary.id === id && summary.state !== 'running') ended();
    });
    try {
      id = (
        await studio.call('campaigns.create', request, { by: 'user', credits: price.published ? price.credits : null })
      ).id;
      if ((await studio.call('campaigns.get', id)).state === 'running') await finished;
      expect((await studio.call('campaigns.get', id)).rows.every((r) => r.state === 'done')).toBe(true);
    } finally {
      stop();
    }
    return { check, quote };
  } finally {
    await studio.close();
  }
}

describe('the same sheet run again with rows added and changed', () => {
  it('names the rows that would write over a file, then prices and makes only the missing steps of the added and changed rows', async () => {
    const data = join(dir, 'data');
    sheet('week1.csv', FIRST);
    await pageCampaign(data, 'week1.csv');
    const first = made(data);
    expect([first.scripts.length, first.videos]).toEqual([FIRST * 2, FIRST]);

    // Week 2: rows 3, 6 and 8 changed company (their file names stay), and ADDED new rows.
    const changed = [2, 5, 7];
    sheet('week2.csv', FIRST + ADDED, changed);
    const asked = await pageCampaign(data, 'week2.csv');
    // Before any price: every row whose name is taken by a video that is no longer its own, by sheet row.
    expect(asked.quote).toBeNull();
    expect(asked.check.existing.map((e) => [e.line, e.fileName])).toEqual([
      [4, '03 - P03.mp4'],
      [7, '06 - P06.mp4'],
      [9, '08 - P08.mp4'],
    ]);
    expect(made(data).scripts).toHaveLength(FIRST * 2);

    // Keep both: the changed rows get new names, and their second scene's voiceover is the one paid for.
    const second = await pageCampaign(data, 'week2.csv', { existing: 'rename' });
    expect(second.check.kept).toBe(FIRST - changed.length);
    expect(second.quote?.items.map((i) => [i.action, i.count])).toEqual([
      ['tts', ADDED * 2 + changed.length],
      ['avatar-video', ADDED + changed.length],
    ]);
    const after = made(data);
    const sent = after.scripts.slice(first.scripts.length).sort();
    const expected = [
      ...changed.map((i) => `Hi ${person(i)}, this is for Globex.`),
      ...Array.from({ length: ADDED }, (_, k) => [
        `Hi ${person(FIRST + k)}, this is for Acme.`,
        `See you soon, ${person(FIRST + k)}.`,
      ]).flat(),
    ].sort();
    expect(sent).toEqual(expected);
    expect(after.videos - first.videos).toBe(ADDED + changed.length);
  }, 600_000);

  it('from the command line with --existing rename: a new look of the template pays for every video and no voiceover', async () => {
    // Last run's voiceovers were paid for (a run cancelled after them leaves the same in the ledger);
    // the title's colour changed since, so every video differs and every file name is taken.
    const data = join(dir, 'cli-data');
    sheet('cli.csv', 4);
    const run = (template: string, more: string[] = []) => {
      const lines = { out: [] as string[], err: [] as string[] };
      const at: CliIo = { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: dir };
      const args = ['campaign', 'run', template, 'cli.csv', '--out', 'cli-out', '--yes', '--data-dir', data, ...more];
      return runCli(args, at).then((code) => ({ code, ...lines }));
    };
    expect((await run('greeting.json')).code).toBe(EXIT.ok);
    const first = made(data);
    expect([first.scripts.length, first.videos]).toEqual([8, 4]);

    const { project } = smallTemplate();
    const recoloured = {
      ...project,
      scenes: project.scenes.map((scene) => ({
        ...scene,
        elements: scene.elements.map((e) => (e.type === 'text' ? { ...e, text: { ...e.text, colour: '#aa2233' } } : e)),
      })),
    };
    writeFileSync(join(dir, 'recoloured.json'), JSON.stringify(recoloured));
    const refused = await run('recoloured.json');
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.err.filter((line) => /^ {2}Sheet row \d+: "/.test(line))).toHaveLength(4);

    expect((await run('recoloured.json', ['--existing', 'rename'])).code).toBe(EXIT.ok);
    const after = made(data);
    expect(after.scripts).toHaveLength(8);
    expect(after.videos).toBe(8);
  }, 600_000);
});
