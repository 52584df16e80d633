import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsCalls } from '@common/bridge/campaigns';
import type { RunningEmulator } from '../../../electron/emulator';
import { createCampaignsDomain } from '../../../electron/services/campaign/campaigns-domain';
import { createCampaignPagesDomain } from '../../../electron/services/campaign/campaign-pages-domain';
import { campaignStills } from '../../../electron/services/campaign/campaign-services';
import { CONTACT_CELL_WIDTH } from '../../../electron/services/campaign/campaign-stills';
import { createMediaToolkit, type MediaToolkit } from '../../../electron/services/media/toolkit';
import { createTextPictures } from '../../../electron/services/text/text-domain';
import { pathToFileURL } from 'node:url';
import { campaignHost, prospects, smallTemplate, startSandbox } from './campaign-harness';
import { downloadView } from '../../component/library/download-view';

let em: RunningEmulator;
let media: MediaToolkit;
const dir = mkdtempSync(join(tmpdir(), 'studio-campaigns-domain-'));
beforeAll(async () => {
  em = await startSandbox(dir);
  media = createMediaToolkit({ dataDir: join(dir, 'media-host') });
}, 120_000);
afterAll(async () => {
  await media.dispose();
  await em.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The domain as the host builds it, on a harness host: stills drawn by a real media toolkit. */
function domainOn(host: ReturnType<typeof campaignHost>, granted: Map<string, string>) {
  const text = createTextPictures(join(dir, 'text'), (path) => pathToFileURL(path).href);
  return createCampaignsDomain(
    { jobs: host.engine, catalogue: host.catalogue, queries: host.queries },
    {
      runner: host.runner,
      openProject: async () => smallTemplate().project,
      pathOf: (ref) => granted.get(ref) ?? null,
      checkLinks: async (urls) =>
        urls.map((url) => ({
          url,
          ok: true,
          kind: 'image' as const,
          format: 'png' as const,
          durationMs: null,
          sizeBytes: 1,
          checkedAt: 0,
        })),
      stills: campaignStills(media, (project) => text.flatten(project)),
    },
  );
}

/** A host, its domain and a campaign's input on three prospects, the second without a first name. */
function threeProspects(prefix: string) {
  const dataDir = mkdtempSync(join(dir, prefix));
  const host = campaignHost(em, dataDir);
  const sheet = join(dataDir, 'prospects.csv');
  writeFileSync(
    sheet,
    prospects(em, 3, [1])
      .map((line) => line.join(','))
      .join('\n'),
  );
  const domain = domainOn(host, new Map([['file:///granted/prospects.csv', sheet]]));
  const input = {
    projectId: 'p1',
    file: 'file:///granted/prospects.csv',
    label: 'prospects.csv',
    fileName: '{{row}} - {{First name}}',
    outDir: join(dataDir, 'out'),
    concurrency: 4,
  };
  return { dataDir, host, h: domain.handlers, input };
}

/** A PNG data URL's pixel size, from its header. */
function pngSize(dataUrl: string): { width: number; height: number; bytes: Buffer } {
  const bytes = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bytes };
}

describe('the campaigns bridge domain', () => {
  it('checks a chosen spreadsheet against a library project, prices it, starts it only on an answer to that price, and follows it to its end', async () => {
    const { host, h, input } = threeProspects('domain-');

    await expect(h['campaigns.check']({ ...input, file: 'file:///not/chosen.csv' })).rejects.toMatchObject({
      code: 'not-allowed',
    });
    const check = await h['campaigns.check'](input);
    expect(check.rows.map((r) => [r.row, r.fileName, r.problems])).toEqual([
      [0, '1 - Ana.mp4', []],
      [1, '2.mp4', ['{{First name}} is empty']],
      [2, '3 - Cy.mp4', []],
    ]);

    const quote = await h['campaigns.quote'](input);
    expect(quote.items.map((i) => [i.action, i.count])).toEqual([
      ['tts', 4],
      ['avatar-video', 2],
    ]);
    // The sandbox publishes no price for these: an answer naming a figure is not an answer to this price.
    await expect(h['campaigns.create'](input, { by: 'user', credits: 5 })).rejects.toMatchObject({
      code: 'confirmation-required',
    });
    expect(await h['campaigns.list']()).toEqual([]);
    // The bridge refuses a create that carries no answer at all, before any handler runs.
    expect(campaignsCalls['campaigns.create'].args.safeParse([input]).success).toBe(false);

    const started = await h['campaigns.create'](input, { by: 'user', credits: null });
    expect(started.counts).toEqual({ pending: 2, invalid: 1 });
    const done = await host.runner.run(started.id);
    expect(done.rows.map((r) => r.state)).toEqual(['done', 'invalid', 'done']);
    expect((await h['campaigns.list']()).map((c) => [c.id, c.state, c.counts])).toEqual([
      [started.id, 'finished', { done: 2, invalid: 1 }],
    ]);
    expect((await h['campaigns.get'](started.id)).rows[0].fileName).toBe('1 - Ana.mp4');
    // What the page reads of it (issue 68): its status without its rows, and a page of its rows with their charges.
    const whole = await h['campaigns.get'](started.id);
    // The record of copies as the host's manager answers it: row 1's file (sheet row 2) found missing on disk.
    const link = whole.rows[0].resultUrl!;
    const missing = downloadView('j-row-1', { id: 'd-row-1', url: link, origin: 'campaign', state: 'missing' });
    const asked: string[][] = [];
    const copies = {
      lostLinks: async () => new Set([link]),
      ofLinks: async (urls: readonly string[]) => (asked.push([...urls]), urls.includes(link) ? [missing] : []),
    };
    const pages = createCampaignPagesDomain({ jobs: host.engine, queries: host.queries }, host.runner, copies).handlers;
    const status = await pages['campaigns.status'](started.id);
    expect('rows' in status).toBe(false);
    expect(status.counts).toEqual(whole.counts);
    expect(status.pace.spent).toBe(Object.values(whole.charged).reduce((sum, credits) => sum + credits, 0));
    const window = await pages['campaigns.rows'](started.id, { offset: 1, limit: 2, only: 'all' });
    expect(window.rows.map((r) => r.row)).toEqual([1, 2]);
    expect(window.charged).toEqual(Object.fromEntries(Object.entries(whole.charged).filter(([row]) => row !== '0')));
    // The lost first row counts among the problems though not on this page; the page's done row is unsaved.
    expect([window.total, window.problems, window.lostDone]).toEqual([3, 2, 1]);
    expect(window.copies).toEqual({ '2': { state: 'none', lost: null } });
    // Only the page's done rows' links are asked for, never the campaign's every link.
    expect(asked).toEqual([[whole.rows[2].resultUrl]]);
    const first = await pages['campaigns.rows'](started.id, { offset: 0, limit: 1, only: 'all' });
    expect(first.copies).toEqual({
      '0': {
        state: 'missing',
        lost: { jobId: 'j-row-1', downloadId: 'd-row-1', folder: missing.folder, relativeName: missing.relativeName },
      },
    });
    await expect(h['campaigns.retryRow'](started.id, 0, { by: 'user', credits: 3 })).rejects.toMatchObject({
      code: 'confirmation-required',
    });
    await expect(h['campaigns.get']('nope')).rejects.toMatchObject({ code: 'not-found' });
    await host.stop();
  }, 120_000);

  it("hands out a checked row's own project for the local preview, refuses a bad row by its reason, and draws the first frames of the good rows on one contact sheet", async () => {
    const { host, h, input, dataDir } = threeProspects('stills-');

    const third = await h['campaigns.rowProject'](input, 2);
    const text = JSON.stringify(third);
    expect(text).toContain('Cy');
    expect(text).not.toContain('{{First name}}');
    await expect(h['campaigns.rowProject'](input, 1)).rejects.toThrow(
      /Sheet row 3 cannot be shown until it is fixed: \{\{First name\}\} is empty/,
    );
    await expect(h['campaigns.rowProject'](input, 7)).rejects.toMatchObject({ code: 'not-found' });
    // A cell corrected in the table is what the preview shows, and it makes the bad row good.
    const fixed = await h['campaigns.rowProject']({ ...input, edits: { '1': { first_name: 'Bea' } } }, 1);
    expect(JSON.stringify(fixed)).toContain('Bea');

    const contact = await h['campaigns.contactSheet'](input, { rows: 8 });
    expect(contact.rows).toEqual([0, 2]);
    const png = pngSize(contact.dataUrl);
    expect([png.width, png.height]).toEqual([contact.width, contact.height]);
    expect(contact.width).toBeGreaterThan(2 * CONTACT_CELL_WIDTH);
    // Each cell is its own row's opening: the two names make two different pictures.
    const file = join(dataDir, 'sheet.png');
    writeFileSync(file, png.bytes);
    const cellOf = async (i: number) =>
      execFileSync(await media.binary('ffmpeg'), [
        '-loglevel',
        'error',
        '-i',
        file,
        '-vf',
        `crop=${CONTACT_CELL_WIDTH}:${contact.height - 12}:${6 + i * (CONTACT_CELL_WIDTH + 6)}:6`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        '-',
      ]);
    const [a, b] = [await cellOf(0), await cellOf(1)];
    expect(a.length).toBe(b.length);
    expect(a.equals(b)).toBe(false);
    expect(new Set(a).size).toBeGreaterThan(8);
    await host.stop();
  }, 120_000);
});
