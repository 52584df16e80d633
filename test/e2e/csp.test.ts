// The studio page under its real Content-Security-Policy in Chromium: every workspace renders with no
// violation (the component library's run-time styles carry the page's nonce), and a style element
// without the nonce is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newStudioContext, screenshot, studioUrl } from './browser';
import { HANG_GUARD_MS } from '../wait';

const workspaces = ['Editor', 'Voices', 'Library', 'Tools', 'Settings'] as const;

describe('the studio page under its CSP', () => {
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const violations = () => page.evaluate(() => (window as unknown as { violations: string[] }).violations);

  beforeAll(async () => {
    browser = await launchBrowser();
    const context = await newStudioContext(browser);
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    page = await context.newPage();
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    await page.goto(studioUrl());
    await page.getByRole('navigation', { name: 'Workspaces' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is served with a nonce and without unsafe-inline', async () => {
    const response = await page.request.get(studioUrl().replace(/\?.*$/, ''));
    const policy = response.headers()['content-security-policy'];
    expect(policy).toMatch(/style-src 'self' 'nonce-[\w-]+'/);
    // WebAssembly may compile (the text rasteriser); nothing else marked unsafe is allowed.
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(policy.replace("'wasm-unsafe-eval'", '')).not.toContain('unsafe');
  });

  it('renders every workspace with no CSP violation, its run-time styles carrying the nonce', async () => {
    for (const name of workspaces) {
      await page.getByRole('button', { name, exact: true }).click();
      const stage = page.locator(`main[aria-label="${name.toLowerCase()} workspace"]`);
      await stage.waitFor();
      // A workspace's chunk loads on first visit; on a loaded machine that can take more than a second (as in the shell e2e).
      await expect.poll(() => stage.locator(':scope > *').count(), { timeout: HANG_GUARD_MS }).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      await screenshot(page, `csp-${name.toLowerCase()}`);
    }
    // The voice previews' waveforms (wavesurfer draws them in a shadow root with its own <style>).
    await page.getByRole('button', { name: 'Voices', exact: true }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('button', { name: /^Play preview/ })
            .first()
            .isEnabled(),
        { timeout: HANG_GUARD_MS },
      )
      .toBe(true);
    const waveStyles = await page.evaluate(() =>
      [...document.querySelectorAll('.wave > div')].flatMap((host) =>
        [...(host.shadowRoot?.querySelectorAll('style') ?? [])].map((s) => s.sheet?.cssRules.length ?? -1),
      ),
    );
    expect(waveStyles.length).toBeGreaterThan(0);
    expect(waveStyles.filter((rules) => rules <= 0)).toEqual([]);
    const drawn = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.wave > div')].every(
          (host) => (host.shadowRoot?.querySelectorAll('canvas').length ?? 0) > 0,
        ),
      );
    await expect.poll(drawn, { timeout: HANG_GUARD_MS }).toBe(true);
    await screenshot(page, 'csp-voices-waveforms');
    // A refused <style> element has no style sheet: each of naive-ui's has one, with rules in it.
    const styles = await page.evaluate(() =>
      [...document.head.querySelectorAll('style')].map((s) => ({
        id: s.getAttribute('cssr-id'),
        nonce: s.nonce,
        rules: s.sheet?.cssRules.length ?? -1,
      })),
    );
    expect(styles.length).toBeGreaterThan(10);
    expect(styles.filter((s) => !s.nonce || s.rules <= 0)).toEqual([]);
    const cursor = await page
      .locator('.n-button:not(.n-button--disabled)')
      .first()
      .evaluate((el) => getComputedStyle(el).cursor);
    expect(cursor).toBe('pointer');
    // The CJK fallback fonts are files of the page's own origin (font-src 'self'): one inlined as a
    // data: URL by the build would be refused here. Loading a few subsets of each asks for them.
    const loaded = await page.evaluate(async () => {
      const faces = await Promise.all(
        ['Noto Sans SC Variable', 'Noto Sans KR Variable'].map((family) =>
          document.fonts.load(`16px "${family}"`, '中文字幕 한국어 日本語のテキスト'),
        ),
      );
      return faces.map((f) => f.length);
    });
    expect(loaded.every((count) => count > 0)).toBe(true);
    // zod tests once whether eval works (it is refused, zod catches that and parses without compiling);
    // that one probe is the only violation allowed.
    const all = await violations();
    expect(all.filter((v) => v.startsWith('script-src eval ')).length).toBeLessThanOrEqual(1);
    expect(all.filter((v) => !v.startsWith('script-src eval '))).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('refuses a style element that lacks the nonce', async () => {
    // Reading the computed style applies every style element in the page at once, a refused one not.
    const applied = await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { outline: 7px solid rgb(255, 0, 0) !important; }';
      document.body.appendChild(style);
      const outline = getComputedStyle(document.body).outlineWidth;
      style.remove();
      return outline;
    });
    expect(applied).not.toBe('7px');
    // The violation is reported by an event the page dispatches a little later.
    await expect.poll(async () => (await violations()).some((v) => v.startsWith('style-src-elem'))).toBe(true);
  });
});
