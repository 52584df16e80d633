// The campaign journey in Chromium, on a fresh data folder: a two-scene template (a name in
// both scripts and in a text element, a per-row logo) and a 25-row spreadsheet with three bad rows.
// The bad rows are named, one cell is corrected in the table, one row is previewed locally, the first
// rows' openings are drawn on a contact sheet, the total is confirmed once, the host is killed half
// way and started again, and every good row ends as a file named from its row, its own name spoken and
// shown, with all 25 rows in the manifest and no row's job created twice.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseProject, setOutput } from '@common/composition';
import { resolveMediaBinary } from '../../electron/services/system/binaries';
import { readLedgerJobs } from '../read-ledger';
import { HANG_GUARD_MS } from '../wait';
import { newStudioContext, screenshot } from './browser';
import { freezeWhen, restartableStudio, type HostProcess } from './host-process';
import { watchErrors, type PageErrors } from './outage';
import { confirmPrice } from './price';

const studio = restartableStudio('studio-e2e-campaign-');

const NAMES = [
  'Ana',
  'bo',
  'Cy',
  'Di',
  'Ed',
  'Fay',
  'Gus',
  'Hal',
  'Ivy',
  'Jo',
  'Kim',
  'Lu',
  'Max',
  'Ned',
  'Ola',
  'Pia',
  'Quin',
  'Rae',
  'Sol',
  'Tam',
  'Uma',
  'Vic',
  'Wes',
  'Xia',
  'Yan',
];
/** Rows (1-based) the check must refuse, and why. */
const BAD = { 6: 'no first name', 13: 'a voice the service does not have', 20: 'a logo link that is gone' } as const;

/** The greeting fixture at 640×360 (the sandbox renders it quickly), as a file a user would import. */
function template(): string {
  const parsed = parseProject(
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'campaign', 'greeting.project.json'), 'utf8'),
  );
  if (!parsed.ok) throw new Error(parsed.error);
  return JSON.stringify(setOutput(parsed.project, { width: 640, height: 360 }));
}

/** The prospects: odd rows one logo, even rows another; rows 6, 13 and 20 bad as BAD says. */
function sheet(origin: string): string {
  const lines = NAMES.map((name, i) => {
    const row = i + 1;
    const logo =
      row === 20
        ? `${origin}/sandbox/gone-logo.png`
        : `${origin}/sandbox/${row % 2 ? 'sandbox-backdrop.png' : 'sandbox-face.png'}`;
    return [row === 6 ? '' : name, `Company ${row}`, row === 13 ? 'Nobody' : 'Ava', 'SandboxBen', logo].join(',');
  });
  return ['First name,company,voice,avatar,logo', ...lines].join('\n');
}

interface LedgerJob {
  kind: string;
  phase: string;
  remoteId: string | null;
  request: unknown;
  purpose: { type: string; row?: number; step?: string; sceneId?: string; take?: number } | null;
}

function campaignJobs(): LedgerJob[] {
  return (readLedgerJobs(studio.dataDir) as LedgerJob[]).filter((job) => job.purpose?.type === 'campaign-row');
}

/** The campaign's finished videos in its folder so far. */
function savedVideos(): string[] {
  const folder = join(studio.dataDir, 'Greetings');
  return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.mp4')) : [];
}

/**
 * Kills the host like a crash, half way: once at least `done` videos are saved, at a moment when no
 * create sits between its ledger line and the service's answer. A create cut off there ends
 * 'outcome-unknown' by design (the service cannot be asked whether it made the job, so the studio never
 * sends it again by itself; the engine's unit tests cover that), which would make a good row's ending
 * depend on the instant of the kill. The host is frozen while its ledger and folder are read (freezeWhen),
 * and killed frozen. Returns how many videos were saved when it was killed.
 */
async function crashBetweenCreates(host: HostProcess, done: number): Promise<number> {
  let saved = 0;
  await freezeWhen(host, `a moment with at least ${done} videos saved and no create in flight`, () => {
    saved = savedVideos().length;
    return saved >= done && !campaignJobs().some((job) => job.phase === 'submitting');
  });
  await studio.stop('SIGKILL');
  return saved;
}

async function openCampaigns(url: string, errors: PageErrors): Promise<Page> {
  const context = await newStudioContext(studio.browser, { viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  errors.watch(page);
  await page.goto(`${url}#/campaigns`);
  await page.getByRole('region', { name: 'New campaign' }).waitFor();
  return page;
}

/** A gray crop of a video's first frame (x, y, width, height in its own pixels). */
async function firstFrameCrop(path: string, box: [number, number, number, number]): Promise<Buffer> {
  const ffmpeg = await resolveMediaBinary('ffmpeg');
  return execFileSync(ffmpeg.path, [
    '-loglevel',
    'error',
    '-i',
    path,
    '-frames:v',
    '1',
    '-vf',
    `crop=${box.join(':')}`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    '-',
  ]);
}

describe('Campaigns in Chromium', () => {
  it('checks a 25-row sheet against a template, previews a row, is priced once, survives a killed host and delivers every good row under its own name', async () => {
    // The page is closed before the host is killed, so no outage window: any error fails the test.
    const errors = watchErrors();
    const first = await studio.start();
    const page = await openCampaigns(first.url, errors);

    // The template is a project in the library: imported as a user would, from the editor's File menu.
    // (In a tab of its own: the editor's canvas asks for a link "{{logo}}" while it shows placeholders,
    // a console error that is the editor's to fix, not this journey's.)
    const editor = await page.context().newPage();
    await editor.goto(`${first.url}#/editor`);
    // The sandbox's own address (the per-row logos are its pictures), read from an avatar's thumbnail.
    const avatar = editor.getByRole('button', { name: /^Add avatar / }).first();
    await avatar.waitFor({ timeout: 2 * HANG_GUARD_MS });
    const origin = new URL((await avatar.locator('img').getAttribute('src')) ?? '').origin;
    const chooser = editor.waitForEvent('filechooser');
    await editor.getByRole('button', { name: 'File menu' }).click();
    await editor.getByText('Import JSON…').click();
    await (
      await chooser
    ).setFiles({ name: 'greeting.json', mimeType: 'application/json', buffer: Buffer.from(template()) });
    // The editor treats it as a template: its variables counted over the canvas.
    await editor
      .getByText(/Template · 5 variables/)
      .first()
      .waitFor({ timeout: HANG_GUARD_MS });
    await screenshot(editor, 'campaigns-template-in-editor');
    await editor.close();

    const setup = page.getByRole('region', { name: 'New campaign' });
    // The list of projects is read when it opens, so the one just imported in the other tab is there.
    await setup.getByLabel('Template project').click();
    await page.locator('.n-base-select-option').getByText('Greeting', { exact: true }).click();
    await setup
      .getByLabel('Spreadsheet of the campaign')
      .setInputFiles({ name: 'prospects.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet(origin)) });
    const summary = setup.getByTestId('campaign-check-summary');
    await expect
      .poll(() => summary.textContent(), { timeout: HANG_GUARD_MS })
      .toContain('25 rows: 22 ready, 3 will not be sent until fixed');
    // Each bad row is named with its reason.
    const bad = (await setup.getByTestId('campaign-bad-rows').textContent()) ?? '';
    expect(bad).toMatch(/Sheet row 7: .*First name.* is empty/);
    expect(bad).toMatch(/Sheet row 14: .*Nobody/);
    expect(bad).toMatch(/Sheet row 21: .*element logo.*link is broken \(HTTP 404/);
    expect(bad.match(/Sheet row \d+:/g)).toEqual(['Sheet row 7:', 'Sheet row 14:', 'Sheet row 21:']);
    await setup.getByText(/Columns: .*First name/).waitFor();
    await screenshot(page, 'campaigns-check', { fullStage: true });

    // A typo fixed in the table (not in the file): checked again, marked, and sent as corrected.
    await setup.getByRole('button', { name: 'Edit First name of sheet row 3' }).click();
    const cell = setup.getByLabel('New First name of sheet row 3');
    await cell.fill('Bo');
    await cell.press('Enter');
    await expect.poll(() => summary.textContent(), { timeout: HANG_GUARD_MS }).toContain('You corrected 1 cell');
    await setup.getByText('02 - Bo.mp4', { exact: true }).waitFor();
    await setup.getByLabel('Campaign folder').fill(join(studio.dataDir, 'Greetings'));

    // One row previewed locally with the draft voice, before anything is paid.
    await setup.getByRole('button', { name: 'Preview sheet row 4' }).click();
    const preview = page.getByLabel('Local preview');
    const video = preview.getByLabel('Preview video');
    await video.waitFor({ timeout: 2 * HANG_GUARD_MS });
    const played = await video.evaluate(
      (el: HTMLVideoElement) =>
        new Promise<{ width: number; duration: number }>((resolve, reject) => {
          const read = () => resolve({ width: el.videoWidth, duration: el.duration });
          if (el.readyState >= 1) read();
          else {
            el.addEventListener('loadedmetadata', read, { once: true });
            el.addEventListener('error', () => reject(new Error('the preview does not play')), { once: true });
          }
        }),
    );
    expect(played.width).toBeGreaterThan(0);
    expect(played.duration).toBeGreaterThan(1);
    await screenshot(page, 'campaigns-preview-row');
    await preview.getByRole('button', { name: 'Close', exact: true }).click();
    await preview.waitFor({ state: 'detached' });

    // The first rows' openings side by side.
    await setup.getByRole('button', { name: 'Contact sheet' }).click();
    const contact = setup.getByTestId('campaign-contact-sheet');
    await contact.waitFor({ timeout: 2 * HANG_GUARD_MS });
    expect(await contact.textContent()).toContain('First frames of rows 1, 2, 3, 4, 5, 7, 8, 9');
    await screenshot(page, 'campaigns-contact-sheet', { fullStage: true });

    // One question for the whole campaign, with its total.
    await setup.getByTestId('campaign-start').click();
    await page.getByTestId('price-summary').waitFor();
    await screenshot(page, 'campaigns-price');
    const said = await confirmPrice(page);
    expect(said).toMatch(/Make 22 videos/);
    expect(said).toContain('3 rows named above will not be sent');
    const open = page.getByTestId('campaign-open');
    await open.waitFor();
    await screenshot(page, 'campaigns-running', { fullStage: true });

    // Half way: the host is killed like a crash, with rows under way. The page shows rows finishing first.
    const progress = open.getByTestId('campaign-progress');
    await expect
      .poll(async () => Number(/(\d+) done/.exec((await progress.textContent()) ?? '')?.[1] ?? 0), {
        timeout: 2 * HANG_GUARD_MS,
      })
      .toBeGreaterThanOrEqual(1);
    await page.context().close();
    const doneAtKill = await crashBetweenCreates(first, 5);
    expect(doneAtKill).toBeLessThan(22);

    // Started again on the same data folder: the campaign is shown again and goes on to its end.
    const again = await openCampaigns((await studio.start()).url, errors);
    const reopened = again.getByTestId('campaign-open');
    await reopened.getByTestId('campaign-notice').waitFor({ timeout: 3 * HANG_GUARD_MS });
    const failedRows = await reopened.getByTestId('campaign-grid').locator('.reason').allTextContents();
    // The notice counts a row saved once the page's download records say so: the last copy's record may
    // reach the page a moment after the run's end (it is committed with its turn), so it is waited for.
    await expect
      .poll(() => reopened.getByTestId('campaign-notice').textContent(), {
        timeout: HANG_GUARD_MS,
        message: failedRows.join(' | '),
      })
      .toContain('Finished: 22 of 25 videos saved; 3 refused by the check');
    await expect
      .poll(() => again.locator('[data-testid="campaign-grid"] img').count(), { timeout: HANG_GUARD_MS })
      .toBeGreaterThan(3);
    // Each saved row shows what the service charged for it, and the campaign its total.
    expect(await reopened.getByTestId('campaign-grid-row-cost-1').textContent()).toMatch(/^[\d,.]+ credits?$/);
    expect(await reopened.getByTestId('campaign-progress').textContent()).toMatch(/[\d,.]+ credits charged so far/);
    // The balance read when it started (before the crash) and when it ended, beside its jobs' figures: the
    // reading at its end comes a moment after the last row, so the line is waited for, not read once.
    await expect
      .poll(() => reopened.getByTestId('campaign-balance').textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/^The balance fell by [\d,]+ credits?; its jobs' prices add up to [\d,.]+/);
    await screenshot(again, 'campaigns-finished', { fullStage: true });

    // Every good row is a file named from its row; the corrected name is the one used.
    const folder = join(studio.dataDir, 'Greetings');
    const videos = readdirSync(folder)
      .filter((f) => f.endsWith('.mp4'))
      .sort();
    const expected = NAMES.map((name, i) => `${String(i + 1).padStart(2, '0')} - ${i === 1 ? 'Bo' : name}.mp4`).filter(
      (_, i) => !(i + 1 in BAD),
    );
    expect(videos).toEqual(expected);

    // No row's job was created twice, across the kill.
    const perStep = new Map<string, number>();
    for (const job of campaignJobs().filter((j) => j.remoteId !== null)) {
      const key = `${job.purpose?.row}:${job.purpose?.step}:${job.purpose?.sceneId ?? ''}:${job.purpose?.take}`;
      perStep.set(key, (perStep.get(key) ?? 0) + 1);
    }
    expect([...perStep.values()].every((n) => n === 1)).toBe(true);
    // Spoken: each good row's two voiceovers say its own name.
    for (const [i, name] of NAMES.entries()) {
      if (i + 1 in BAD) continue;
      const said = campaignJobs()
        .filter((j) => j.kind === 'tts' && j.purpose?.row === i)
        .map((j) => JSON.stringify(j.request));
      expect(said, `row ${i + 1}`).toHaveLength(2);
      for (const text of said) expect(text).toContain(i === 1 ? 'Bo' : name);
    }
    // Shown: rows 1 and 3 share a logo and differ by name; the title of their first frames differs,
    // while the logo corner is the same picture.
    const title: [number, number, number, number] = [20, 280, 300, 50];
    const logo: [number, number, number, number] = [20, 20, 100, 100];
    const [one, three] = [join(folder, expected[0]), join(folder, expected[2])];
    expect((await firstFrameCrop(one, title)).equals(await firstFrameCrop(three, title))).toBe(false);
    expect((await firstFrameCrop(one, logo)).equals(await firstFrameCrop(three, logo))).toBe(true);

    // The manifest lists all 25 rows, the refused ones with their reason.
    const manifest = Papa.parse<Record<string, string>>(
      readFileSync(join(folder, 'manifest.csv'), 'utf8')
        .replace(/^\uFEFF/, '')
        .trim(),
      { header: true },
    ).data;
    expect(manifest).toHaveLength(25);
    const states = manifest.map((r) => r.status ?? r.state);
    expect(states.filter((s) => s === 'done')).toHaveLength(22);
    expect(manifest.filter((r) => (r.status ?? r.state) === 'invalid').map((r) => r.sheet_row)).toEqual([
      '7',
      '14',
      '21',
    ]);
    expect(errors.unexpected()).toEqual([]);
    // About 35 s on a quiet machine, and 230 s beside a full suite and busy loops: the guard is well over both.
  }, 600_000);
});
