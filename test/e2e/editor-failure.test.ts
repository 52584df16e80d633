// A failed job explained, in Chromium against the web host and its sandbox: a server that answers the
// studio's checks but refuses the service's download (as a CDN with hot-link protection does) makes
// the paid job fail; the Library names the scene and element in plain words and opens the project there.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type StudioSession } from './browser';
import { addAvatarToScene, addMediaLink, openEditor, setField, waitForJobCreated } from './editor-helpers';
import { makeImage } from '../fixtures/composition/make-media';
import { HANG_GUARD_MS } from '../wait';

describe('editor: a failed job explained', () => {
  let studio: StudioSession;
  let origin = '';
  let server: Server;
  let picky = '';
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-failure-'));
    const picture = readFileSync(makeImage(join(dir, 'logo.png'), { colour: 'orange', width: 64, height: 64 }));
    let downloads = 0;
    // The page's own picture requests and the studio host's first download (its link check) work, later
    // downloads by a program (the service) are refused; HEAD always works.
    server = createServer((req, res) => {
      if (req.method === 'HEAD')
        return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': picture.length }).end();
      if (!/Mozilla/.test(req.headers['user-agent'] ?? '')) downloads += 1;
      if (downloads > 1) return void res.writeHead(404, 'Not Found').end();
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': picture.length }).end(picture);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    picky = `http://127.0.0.1:${(server.address() as AddressInfo).port}/picky-logo.png`;
    ({ studio, origin } = await openEditor());
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the service reason with scene and element, and opens the project there', async () => {
    const { page } = studio;
    await addAvatarToScene(page, 'Anna (sandbox cartoon)');
    await page.keyboard.press('Escape');
    await page.getByText('Audio URL', { exact: true }).click();
    await setField(page, 'Voice URL', `${origin}/sandbox/voice-sandbox_ava.mp3`);
    await addMediaLink(page, picky);
    const problems = page.getByRole('region', { name: 'Problems' });
    await expect.poll(() => problems.textContent(), { timeout: HANG_GUARD_MS }).toContain('All 2 links checked');

    await page.getByRole('button', { name: 'Create video' }).click();
    const send = page.getByRole('button', { name: 'Send to the service' });
    await expect.poll(() => send.isEnabled(), { timeout: HANG_GUARD_MS }).toBe(true);
    await send.click();
    await waitForJobCreated(page);
    // Nothing selected, so it is the Library's "open there" that selects the element.
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Element name' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Library', exact: true }).click();
    const row = page.locator('tr[data-job-id]').filter({ hasText: 'Avatar video' }).first();
    await expect.poll(() => row.textContent(), { timeout: HANG_GUARD_MS }).toMatch(/Failed/);
    // The row's own Details button, as a user opens it: a click in the middle of the row can land on
    // a cell with buttons of its own.
    await row.getByRole('button', { name: 'Details', exact: true }).click();
    const why = page.getByRole('region', { name: 'Why it failed' });
    await why.waitFor();
    expect(await why.textContent()).toContain(
      'Scene 1 (scene-1), element el-2 (picky-logo.png): the service could not download the image link (HTTP 404).',
    );
    await screenshot(page, 'library-failure-explained');

    await why.getByRole('button', { name: 'Open the project at scene 1' }).click();
    await page.getByTestId('editor').waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('textbox', { name: 'Element name' })
          .inputValue()
          .catch(() => ''),
      )
      .toBe('picky-logo.png');
    await screenshot(page, 'editor-opened-at-failed-element');
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);
});
