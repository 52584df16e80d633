// The first start of this version on a folder of an earlier one: its old job journal is taken into the
// records database while the page already shows how far that is, a bar with what is happening and the
// count, and the studio itself once the records are open. Each of the other old records' stages (links,
// copies, runs) shows as its own bar too.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_BRIDGE_PATHS } from '../../electron/common/bridge/contract';
import type { RecordsStage, StartupState } from '../../electron/common/bridge/system';
import { startWebHost } from '../../electron/web/web-host';
import { folderWithJournal } from '../bench/records-folder';
import { launchBrowser, newStudioContext, screenshot, studioUrl } from './browser';

/**
 * Jobs in the old journal: enough that taking them in lasts well beyond the page's load, which the
 * import slows (about 20 s here for 120,000, the page up after 4 to 9 s on a loaded machine).
 */
const JOBS = 150_000;

describe('the first start on an old folder', () => {
  // A hang guard past the studio's own wait (240 s) and the folder's making: on a busy machine the whole
  // took 122 s, past the suite's default guard, while every step was still moving.
  it('shows a bar of the old journal taken in, then the studio', { timeout: 360_000 }, async () => {
    const dataDir = await folderWithJournal(JOBS);
    const root = join(import.meta.dirname, '..', '..');
    const host = await startWebHost({ root, dataDir, port: 0, env: { PATH: process.env.PATH }, skipBuild: true });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // Every line the screen shows, as it shows it: read in the page, so none is missed between two looks.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { startupSeen: string[] }).startupSeen = seen;
        new MutationObserver(() => {
          const line = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
          const text = `${line('startup-title')} ${line('startup-detail')}`.trim();
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto(host.url);
      await page.getByTestId('startup-bar').waitFor();
      expect(await page.getByTestId('startup-title').textContent()).toMatch(
        /Taking in your job records|Indexing your jobs/,
      );
      expect(await page.getByTestId('startup-safe').textContent()).toContain('It is safe to wait');
      await screenshot(page, 'startup-old-journal');
      // A command started now, as a user would start one beside the studio, runs through it: it is not
      // refused as the folder being in use, and its paid job waits for the records, then goes.
      const command = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'electron/cli/index.ts'),
          'tts',
          '--voice',
          'sandbox_ava',
          '--text',
          'Said while the studio starts.',
          '--yes',
          '--json',
          '--data-dir',
          dataDir,
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let said = '';
      command.stdout.on('data', (d: Buffer) => (said += d.toString()));
      command.stderr.on('data', (d: Buffer) => (said += d.toString()));
      const ended = new Promise<number | null>((resolve) => command.once('exit', resolve));
      // Then the studio, and no startup screen beside it.
      await page.locator('main.stage').waitFor({ timeout: 240_000 });
      expect(await page.getByTestId('startup').count()).toBe(0);
      await host.ready;
      expect(existsSync(join(dataDir, 'jobs', 'ledger.jsonl'))).toBe(false);
      expect(await ended, said).toBe(0);
      expect(said).not.toContain('in use by');

      const seen = await page.evaluate(() => (window as unknown as { startupSeen: string[] }).startupSeen);
      const journal = seen
        .map((line) => /(\d+)% of the old journal read, ([\d,]+) changes/.exec(line))
        .filter((match) => match !== null)
        .map((match) => ({ percent: Number(match[1]), rows: Number(match[2].replace(/,/g, '')) }));
      // The screen moved on while the page watched it (a new count or a next index), no count below the last.
      // Two lines may carry one count (the title or the percent changed between two reads of it).
      expect(seen.length).toBeGreaterThan(1);
      for (const [i, step] of journal.entries())
        if (i > 0) expect(step.rows).toBeGreaterThanOrEqual(journal[i - 1].rows);
      expect(journal.every((step) => step.rows <= JOBS)).toBe(true);
    } finally {
      await browser.close();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // The host's own answers move through these stages too fast or too slowly to catch each one, so the
  // page is given them in turn: what is checked is how the real page shows each, in Chromium.
  it('shows a bar for the storage links, the saved copies and the runs, with their counts', async () => {
    const links = 'Taking in your storage links from the earlier version…';
    const stages: [RecordsStage, string, string, number][] = [
      [{ stage: 'links', done: 0, total: 0 }, links, 'Reading the old record of uploads.', 0],
      [{ stage: 'links', done: 15_000, total: 20_000 }, links, '15,000 of 20,000 links taken in.', 75],
      [
        { stage: 'copies', done: 111_000, total: 333_000 },
        'Taking in your saved copies from the earlier version…',
        '111,000 of 333,000 copies taken in.',
        33,
      ],
      [
        { stage: 'runs', rows: 62_000, fraction: 0.62 },
        'Taking in your earlier campaigns and batches…',
        '62% of their files read, 62,000 rows taken in.',
        62,
      ],
    ];
    let answer: StartupState = { ready: false, records: stages[0][0], elapsedMs: 65_000, failure: null };
    const browser = await launchBrowser();
    try {
      const page = await (await newStudioContext(browser)).newPage();
      await page.route(
        (url) => url.pathname === `${WEB_BRIDGE_PATHS.call}system.startup`,
        (route) => route.fulfill({ json: { ok: true, value: answer } }),
      );
      await page.goto(studioUrl());
      const heights = new Set<number>();
      for (const [records, title, detail, percent] of stages) {
        answer = { ...answer, records };
        await page.getByTestId('startup-detail').filter({ hasText: detail }).waitFor();
        expect(await page.getByTestId('startup-title').textContent()).toBe(title);
        expect(await page.getByTestId('startup-bar').getAttribute('aria-valuenow')).toBe(String(percent));
        heights.add((await page.getByTestId('startup').boundingBox())?.height ?? 0);
        await screenshot(page, `startup-${records.stage}-${percent}`);
      }
      // Each stage's words fit the same card: it does not jump as the start moves from one to the next.
      expect(heights.size).toBe(1);
      answer = { ...answer, ready: true, records: null };
      await page.locator('main.stage').waitFor();
      expect(await page.getByTestId('startup').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});
