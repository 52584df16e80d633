// The Avatars tool in Chromium against the web host and its sandbox: the list and its filters, one
// avatar's detail, refusals before sending, and an upload followed from processing to ready, seen in
// the editor's Uploaded avatars on a second page meanwhile. The upload's link is held by a local server
// until the test lets it go, so "processing" is seen for certain, not by luck of timing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openStudio, screenshot, studioUrl, type StudioSession } from './browser';
import { makeImage, makeVideo } from '../fixtures/composition/make-media';
import { paidAction, sandboxBalance } from './price';
import { HANG_GUARD_MS } from '../wait';

describe('Avatars tool in Chromium', () => {
  let studio: StudioSession;
  let server: Server;
  let dir = '';
  let heldLink = '';
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-avatars-'));
    const clip = readFileSync(
      makeVideo(join(dir, 'presenter.mp4'), { colour: 'teal', width: 320, height: 240, seconds: 2 }),
    );
    server = createServer((req, res) => {
      const send = () =>
        res
          .writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length })
          .end(req.method === 'HEAD' ? undefined : clip);
      if (req.method === 'HEAD') return void send();
      void released.then(send);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    heldLink = `http://127.0.0.1:${(server.address() as AddressInfo).port}/presenter.mp4`;
    studio = await openStudio();
  }, 120_000);
  afterAll(async () => {
    release();
    await studio?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const tool = (page: Page): Locator => page.getByRole('region', { name: 'Tools' });
  const cards = (page: Page): Locator =>
    tool(page).getByRole('region', { name: 'Avatar list' }).locator('[data-avatar]');
  const upload = (page: Page): Locator => tool(page).getByRole('region', { name: 'Upload an avatar' });

  async function fillUpload(page: Page, values: { link: string; id: string; name: string }): Promise<void> {
    const form = upload(page);
    await form.getByRole('textbox', { name: 'Avatar video or picture link' }).fill(values.link);
    await form.getByRole('textbox', { name: 'avatar_id' }).fill(values.id);
    await form.getByRole('textbox', { name: 'Avatar name' }).fill(values.name);
  }

  it('lists the official avatars page by page, filters them and shows one in detail', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Tools', exact: true }).click();
    await tool(page).locator('.n-tabs-tab[data-name="avatars"]').click();
    await expect.poll(() => cards(page).count(), { timeout: HANG_GUARD_MS }).toBeGreaterThanOrEqual(3);
    const pager = tool(page).getByRole('navigation', { name: 'Pages' });
    expect(await pager.getByRole('status').textContent()).toMatch(/^Page 1 · 1–\d+$/);
    expect(await pager.getByRole('button', { name: 'Next ›' }).isDisabled()).toBe(true);
    await screenshot(page, 'avatars-list');

    await tool(page).getByText('Streaming', { exact: true }).first().click();
    // Some cards, all streaming: an empty list while the filtered page loads is not yet the answer.
    await expect
      .poll(async () => {
        const shown = await cards(page).allTextContents();
        return shown.length > 0 && shown.every((t) => t.includes('Streaming'));
      })
      .toBe(true);
    await tool(page).getByText('Any type', { exact: true }).click();
    await expect.poll(() => cards(page).count()).toBeGreaterThanOrEqual(3);

    await cards(page).first().click();
    const detail = tool(page).getByRole('region', { name: 'Avatar detail' });
    await expect.poll(() => detail.textContent(), { timeout: HANG_GUARD_MS }).toContain('3 · Ready');
    expect(await detail.textContent()).toContain('Official');
    await detail.locator('video').waitFor();
    await expect
      .poll(() => detail.locator('video').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: HANG_GUARD_MS })
      .toBeGreaterThan(0);
    await screenshot(page, 'avatars-detail');
  });

  it('refuses an avatar_id with other characters, or one already used, before anything is sent', async () => {
    const { page } = studio;
    const form = upload(page);
    await form.getByRole('textbox', { name: 'avatar_id' }).fill('my-avatar');
    await expect
      .poll(() => form.getByRole('alert').first().textContent())
      .toBe('avatar_id may contain letters and digits only');

    const taken = (await cards(page).first().getAttribute('data-avatar')) as string;
    await fillUpload(page, { link: heldLink, id: taken, name: 'A copy' });
    const balance = await sandboxBalance(page);
    await form.getByRole('button', { name: 'Upload avatar' }).click();
    // The host's own check runs before the price is asked: no question a "yes" to which would be refused.
    await expect
      .poll(() => form.getByRole('alert').first().textContent(), { timeout: HANG_GUARD_MS })
      .toContain(`The avatar_id "${taken}" is already used on this connection`);
    expect(await page.getByTestId('price-summary').count()).toBe(0);
    expect(await form.locator('[data-upload]').count()).toBe(0);
    expect(await sandboxBalance(page)).toBe(balance);
    await screenshot(page, 'avatars-refused');
  });

  it('follows an upload until it is ready; meanwhile the editor lists it under Uploaded as processing, unusable', async () => {
    const { page } = studio;
    const form = upload(page);
    await fillUpload(page, { link: heldLink, id: 'Studio1', name: 'Studio presenter' });
    await paidAction(page, 'avatar-upload', () => form.getByRole('button', { name: 'Upload avatar' }).click(), {
      cancelFirst: true,
    });
    const row = form.locator('[data-upload="Studio1"]');
    await expect.poll(() => row.textContent(), { timeout: HANG_GUARD_MS }).toMatch(/Queued|Processing/);

    // The editor, on a second page of the same studio.
    const editor = await studio.context.newPage();
    await editor.goto(studioUrl());
    const assets = editor.getByRole('region', { name: 'Assets' });
    await assets.getByText('Uploaded', { exact: true }).click();
    const processing = assets.getByRole('button', { name: 'Avatar Studio presenter, still processing' });
    await processing.waitFor({ timeout: HANG_GUARD_MS });
    expect(await processing.textContent()).toContain('Processing');
    expect(await processing.getAttribute('draggable')).toBe('false');
    await screenshot(editor, 'avatars-editor-processing');
    await processing.click();
    await editor
      .getByText('Studio presenter is still processing on the service; it can be used once it is ready.')
      .waitFor();

    // A project made elsewhere (a teammate's file) that already uses the avatar: a paid job with it
    // would fail, so Problems says so and the canvas marks the element until the avatar is ready.
    const teammate = {
      schemaVersion: 2,
      id: 'teammate-project',
      name: 'Teammate project',
      kind: 'avatar-video',
      output: { width: 1280, height: 720 },
      background: '#ffffff',
      scenes: [
        {
          id: 'scene-1',
          durationMs: 3000,
          voice: null,
          elements: [
            {
              id: 'presenter',
              type: 'avatar',
              url: heldLink,
              avatarId: 'Studio1',
              avatarFrom: 3,
              name: 'Studio presenter',
              x: 320,
              y: 90,
              width: 640,
              height: 540,
              layer: 1,
            },
          ],
        },
      ],
    };
    const chooser = editor.waitForEvent('filechooser');
    await editor.getByRole('button', { name: 'File menu' }).click();
    await editor.getByText('Import JSON…').click();
    await (
      await chooser
    ).setFiles({ name: 'teammate.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(teammate)) });
    const problems = editor.getByRole('region', { name: 'Problems' });
    const stillProcessing =
      'element presenter (Studio presenter): the uploaded avatar is still being processed by the service; a job with it would fail.';
    await expect.poll(() => problems.textContent(), { timeout: HANG_GUARD_MS }).toContain(stillProcessing);
    await editor.getByRole('note', { name: /the uploaded avatar is still being processed/ }).waitFor();
    await screenshot(editor, 'editor-avatar-processing-problem');

    release();
    await expect
      .poll(() => row.textContent(), { timeout: HANG_GUARD_MS })
      .toContain('Ready: in the editor under Avatars → Uploaded');
    await screenshot(page, 'avatars-upload-ready');
    const ready = assets.getByRole('button', { name: 'Add avatar Studio presenter' });
    await ready.waitFor({ timeout: HANG_GUARD_MS });
    expect(await ready.textContent()).not.toContain('Processing');
    await expect.poll(() => problems.textContent(), { timeout: HANG_GUARD_MS }).not.toContain('still being processed');
    await screenshot(editor, 'avatars-editor-ready');

    // The "upload ready" notice may lie over the button for a few seconds.
    await row.getByRole('button', { name: 'Show' }).dispatchEvent('click');
    const detail = tool(page).getByRole('region', { name: 'Avatar detail' });
    await expect.poll(() => detail.textContent(), { timeout: HANG_GUARD_MS }).toContain('Uploaded');
    expect(await detail.textContent()).toContain('3 · Ready');
    await editor.close();
    expect(studio.consoleErrors).toEqual([]);
  });

  it('uploads a local picture: taken in by the host, sent as a link on the storage, ready', async () => {
    const { page } = studio;
    const form = upload(page);
    await form
      .getByLabel('Avatar video or picture: local file')
      .setInputFiles(makeImage(join(dir, 'portrait.png'), { colour: 'purple', width: 320, height: 240 }));
    await form.getByText('portrait.png · a local file, uploaded to your storage when you send').waitFor();
    await form.getByRole('textbox', { name: 'avatar_id' }).fill('Portrait2');
    await form.getByRole('textbox', { name: 'Avatar name' }).fill('Local portrait');
    await paidAction(page, 'avatar-upload', () => form.getByRole('button', { name: 'Upload avatar' }).click());
    const row = form.locator('[data-upload="Portrait2"]');
    await expect.poll(() => row.textContent(), { timeout: HANG_GUARD_MS }).toContain('Ready');
    await expect
      .poll(async () => (await cards(page).allTextContents()).some((t) => t.includes('Local portrait')))
      .toBe(true);
    await cards(page).filter({ hasText: 'Local portrait' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'avatars-local-ready');
    expect(studio.consoleErrors).toEqual([]);
  });
});
