// Helpers for end-to-end tests: the run's one Chromium (global-setup.ts) through playwright-core, a
// fresh browser context per studio, against the web host of this test file (a fresh one per file, with
// its own data folder: studio-host.ts). Nothing is ever downloaded.
//
//   const studio = await openStudio();              // page at the studio, console errors collected
//   await studio.page.getByRole('button', { name: 'Voices' }).click();
//   await screenshot(studio.page, 'voices');         // test-artifacts/screenshots/voices.png
//   expect(studio.consoleErrors).toEqual([]);
//   await studio.close();
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { HANG_GUARD_MS } from '../wait';
import { CHROMIUM_FLAGS, chromiumPath } from './chromium';
import { fileHost } from './studio-host';

export { CHROMIUM_FLAGS, chromiumPath };

export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');

/**
 * A connection of its own to the run's Chromium: closing it closes the contexts it opened and leaves
 * the browser to the other tests. Outside the e2e project (no shared browser) it launches one.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
}

/** The web host's address including its access token. */
export function studioUrl(): string {
  return fileHost().host.url;
}

/** The web host's data folder (records, logs), for tests that check what was written. */
export function studioDataDir(): string {
  return fileHost().dataDir;
}

/**
 * A fresh browser context as the journeys see the studio: its usual window size, the dark scheme, and
 * the system's "reduce motion" setting on, which the studio honours by dropping its transitions (see
 * base.css). Without it every hover and focus started a 60-frames-a-second transition, about a quarter
 * of the browser's work in a journey; the shell journey keeps the motion on, so the default look is
 * driven too.
 */
export async function newStudioContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    colorScheme: 'dark',
    reducedMotion: 'reduce',
    ...options,
  });
  // A wait given no time of its own is a hang guard, as the suite's others are: Playwright's 30 s was
  // reached by a page that was only slow, on a machine running the suite beside other heavy work.
  context.setDefaultTimeout(HANG_GUARD_MS);
  return context;
}

export interface StudioSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/**
 * Opens the studio in a fresh browser context (newStudioContext) and waits for the shell. `hash` picks a
 * workspace (e.g. '#/library'); `motion` turns the studio's transitions back on. Console errors and
 * uncaught exceptions land in consoleErrors.
 */
export async function openStudio(
  options: { hash?: string; viewport?: { width: number; height: number }; motion?: boolean } = {},
): Promise<StudioSession> {
  const browser = await launchBrowser();
  const context = await newStudioContext(browser, {
    ...(options.viewport && { viewport: options.viewport }),
    ...(options.motion && { reducedMotion: 'no-preference' }),
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  await page.goto(studioUrl() + (options.hash ?? ''));
  await page.getByRole('navigation', { name: 'Workspaces' }).waitFor();
  return {
    browser,
    context,
    page,
    consoleErrors,
    close: () => browser.close(),
  };
}

/**
 * Saves a PNG of the window to test-artifacts/screenshots/<name>.png and returns its path. Transitions
 * and animations are run to their end first, so a dialog or drawer is shot where it comes to rest
 * rather than after a guessed wait. Workspaces
 * scroll inside the shell's stage, not the page, so `{ fullStage: true }` grows the window to the
 * stage's content height for the shot (and back after) to capture a long workspace whole.
 */
export async function screenshot(page: Page, name: string, options: { fullStage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9._-]+/gi, '-')}.png`);
  const viewport = page.viewportSize();
  const content = options.fullStage
    ? await page.evaluate(() => document.querySelector('main.stage')?.scrollHeight ?? 0)
    : 0;
  if (viewport && content > viewport.height) {
    await page.setViewportSize({ width: viewport.width, height: content });
    // The stage lays itself out again for the taller window by the second frame after the resize.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path, animations: 'disabled' });
    await page.setViewportSize(viewport);
  } else {
    await page.screenshot({ path, animations: 'disabled' });
  }
  return path;
}

/**
 * Opens a project from File > Recent. The menu opens at once, but its Recent item stays disabled until
 * the page has read the list of recent projects (a fresh page reads it after it loads), and a disabled
 * item opens no submenu when the pointer enters it, nor later while the pointer rests there: so the
 * pointer goes to Recent only once the item is enabled, and then the submenu opens every time.
 */
export async function openRecentProject(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'File menu' }).click();
  const recent = page.locator('.n-dropdown-option-body').filter({ hasText: /^Recent$/ });
  await expect
    .poll(() => recent.getAttribute('class'), {
      timeout: HANG_GUARD_MS,
      message: 'File > Recent to be enabled (the recent projects read)',
    })
    .not.toContain('dropdown-option-body--disabled');
  await recent.hover();
  await page.locator('.n-dropdown-option').getByText(name).click();
}
