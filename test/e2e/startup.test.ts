// The first start of this version on a folder of an earlier one: its old job journal is taken into the
// records database while the page already shows how far that is, a bar with what is happening and the
// count, and the studio itself once the records are open.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startWebHost } from '../../electron/web/web-host';
import { folderWithJournal } from '../bench/records-folder';
import { launchBrowser, screenshot } from './browser';

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
      // The screen moved on while the page watched it (a new count or a next index), each count above the last.
      expect(seen.length).toBeGreaterThan(1);
      for (const [i, step] of journal.entries()) if (i > 0) expect(step.rows).toBeGreaterThan(journal[i - 1].rows);
      expect(journal.every((step) => step.rows <= JOBS)).toBe(true);
    } finally {
      await browser.close();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
