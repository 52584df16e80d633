import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost } from '../../electron/web/web-host';
import { launchBrowser, newStudioContext, openStudio, screenshot, studioUrl, type StudioSession } from './browser';
import { HANG_GUARD_MS } from '../wait';

const workspaces = ['Editor', 'Voices', 'Library', 'Tools', 'Settings', 'Campaigns'] as const;

describe('app shell in Chromium', () => {
  let studio: StudioSession;

  // With the studio's transitions on, as most users see it; the other journeys run with "reduce motion".
  beforeAll(async () => {
    studio = await openStudio({ motion: true });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('opens with the token taken out of the address', async () => {
    const url = new URL(studio.page.url());
    expect(url.searchParams.has('token')).toBe(false);
    expect(url.hostname).toBe('127.0.0.1');
  });

  it("announces the first screen's code in the page, so the browser fetches it with the entry", async () => {
    const preloaded = await studio.page
      .locator('link[rel="modulepreload"]')
      .evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));
    expect(preloaded.some((href) => /\/EditorView-[\w-]+\.js$/.test(href))).toBe(true);
  });

  it("shows the active connection's credit balance in the status area", async () => {
    const { page } = studio;
    // The sandbox starts with 1,000 credits and answers quota/info like the service.
    await expect
      .poll(() => page.getByTestId('credit-balance').textContent(), { timeout: HANG_GUARD_MS })
      .toBe('Credits: 1,000');
    await screenshot(page, 'shell-credit-balance');
  });

  it('reaches every workspace from the sidebar, with no console errors', async () => {
    const { page } = studio;
    for (const name of workspaces) {
      await page.getByRole('button', { name, exact: true }).click();
      await expect
        .poll(() => page.getByRole('button', { name, exact: true }).getAttribute('aria-current'))
        .toBe('page');
      // Each workspace is its own component (some owned by other areas): wait for the stage to show it.
      const stage = page.locator(`main[aria-label="${name.toLowerCase()} workspace"]`);
      await stage.waitFor();
      // A workspace's chunk loads on first visit; on a loaded machine that can take more than a second.
      await expect.poll(() => stage.locator(':scope > *').count(), { timeout: HANG_GUARD_MS }).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      await screenshot(page, `shell-${name.toLowerCase()}`);
    }
    expect(studio.consoleErrors).toEqual([]);
  });

  it('switches workspaces with Alt+digit and Ctrl+digit, and keeps the choice in the address', async () => {
    const { page } = studio;
    await page.keyboard.press('Alt+4');
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/tools');
    await page.keyboard.press('Control+2');
    await page.getByRole('heading', { level: 1, name: 'Voices' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Voices' }).waitFor();
    expect(studio.consoleErrors).toEqual([]);
  });

  it('shows system info and the ffmpeg and ffprobe in use in Settings', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const tools = page.getByRole('list', { name: 'Media tools in use' });
    await tools.locator('[data-binary="ffmpeg"] code').waitFor();
    expect(await tools.locator('[data-binary="ffmpeg"] code').textContent()).toMatch(/ffmpeg$/);
    expect(await tools.locator('[data-binary="ffprobe"]').textContent()).toMatch(/In use/);
    await expect.poll(() => page.getByText('Local web host in a browser').isVisible()).toBe(true);
    await screenshot(page, 'shell-settings-loaded');
    await screenshot(page, 'shell-settings-full', { fullStage: true });
    expect(studio.consoleErrors).toEqual([]);
  });

  it('saves a binary path through the bridge, and refuses a relative one with a clear message', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const field = page.getByRole('textbox', { name: 'ffmpeg path' });
    const save = page.getByRole('button', { name: 'Save paths' });
    await field.fill('relative/ffmpeg');
    await save.click();
    await page
      .getByText(/must be an absolute path/)
      .first()
      .waitFor();

    // A real ffmpeg: the system one where there is one, else the one the npm package ships.
    const real = process.env.FFMPEG_BIN ?? '/usr/bin/ffmpeg';
    await field.fill(real);
    await save.click();
    const ffmpeg = page.getByRole('list', { name: 'Media tools in use' }).locator('[data-binary="ffmpeg"]');
    await expect.poll(() => ffmpeg.textContent(), { timeout: HANG_GUARD_MS }).toMatch(/path from Settings/);

    await field.fill('');
    await save.click();
    await expect
      .poll(() => ffmpeg.textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/system PATH|environment|ffmpeg-static|bundled npm package/);
    // The refused save is reported in the page, not as a console error.
    expect(studio.consoleErrors).toEqual([]);
  });

  it('drops its transitions when the system asks to reduce motion, and keeps them otherwise', async () => {
    const transition = (page: typeof studio.page) =>
      page
        .getByRole('navigation', { name: 'Workspaces' })
        .getByRole('button')
        .first()
        .evaluate((el) => getComputedStyle(el).transitionDuration.split(',').map(parseFloat));
    expect(Math.max(...(await transition(studio.page)))).toBeGreaterThan(0);
    const context = await newStudioContext(studio.browser);
    const page = await context.newPage();
    await page.goto(studioUrl());
    await page.getByRole('navigation', { name: 'Workspaces' }).waitFor();
    expect(Math.max(...(await transition(page)))).toBe(0);
    await context.close();
  });

  it('refuses a browser that comes without the token', async () => {
    const context = await studio.browser.newContext();
    const page = await context.newPage();
    const address = new URL(studioUrl());
    const response = await page.goto(`${address.origin}/`);
    expect(response?.status()).toBe(401);
    expect(await page.textContent('body')).toMatch(/refused/);
    await context.close();
  });
});

describe('a corrupt settings file', () => {
  it('is moved aside with a notice in the page, and the studio still opens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-corrupt-'));
    writeFileSync(join(dataDir, 'settings.json'), '{"version": 1, "data": {"ffmpegPath": ');
    const root = join(import.meta.dirname, '..', '..');
    const host = await startWebHost({ root, dataDir, port: 0, env: { PATH: process.env.PATH }, skipBuild: true });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${host.url}#/settings`);
      await page.getByText('The settings file could not be read and was set aside').waitFor();
      const aside = readdirSync(dataDir).filter((f) => /^settings\.corrupt-.*\.json$/.test(f));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dataDir, aside[0]), 'utf8')).toBe('{"version": 1, "data": {"ffmpegPath": ');
      await page.getByText(aside[0], { exact: false }).first().waitFor();
      await screenshot(page, 'shell-settings-moved-aside');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
