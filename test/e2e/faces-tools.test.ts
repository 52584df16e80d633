// Analyze frames and the live face swap camera in Chromium through the web host against the sandbox.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath, newStudioContext, screenshot, studioUrl } from './browser';
import { confirmPrice } from './price';
import { HANG_GUARD_MS } from '../wait';

let browser: Browser;
let page: Page;
let origin = '';
let clipUrl = '';
const errors: string[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'studio-e2e-faces-tools-'));

async function bridge<T>(channel: string, ...args: unknown[]): Promise<T> {
  const outcome = await page.evaluate(
    async ({ channel, args }) => {
      const response = await fetch(`/bridge/call/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
    },
    { channel, args },
  );
  if (!outcome.ok) throw new Error(`${channel}: ${outcome.error?.message}`);
  return outcome.value as T;
}

const tab = (name: string) =>
  page.getByRole('region', { name: 'Tools' }).locator(`.n-tabs-tab[data-name="${name}"]`).click();

beforeAll(async () => {
  // Chromium's stand-in camera (a test pattern), allowed without a prompt: the sandbox session shows it.
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_FLAGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
    headless: true,
  });
  const context = await newStudioContext(browser, { permissions: ['camera', 'microphone'] });
  page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  await page.goto(studioUrl());
  await page.getByRole('navigation', { name: 'Workspaces' }).waitFor();
  const avatars = await bridge<{ url: string; avatar_id: string }[]>('catalogue.avatars', { from: 2 });
  clipUrl = avatars.find((a) => a.avatar_id === 'SandboxAnna')?.url ?? '';
  origin = new URL(clipUrl).origin;
  await page.getByRole('button', { name: 'Tools', exact: true }).click();
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('Analyze frames and the live camera in Chromium against the sandbox', () => {
  it('merges one person across frames, left to right, with a crop, confidence and a timeline', async () => {
    await tab('analyze-frames');
    const frames = [
      `${origin}/sandbox/sandbox-group.png`,
      `${origin}/sandbox/avatar-SandboxAnna.jpg`,
      `${origin}/sandbox/sandbox-group.png`,
    ];
    const times = [0, 1.5, 3];
    for (const [i, link] of frames.entries()) {
      if (i > 0) await page.getByRole('button', { name: 'Add a link' }).click();
      await page.getByLabel(`Frame ${i + 1}`, { exact: true }).fill(link);
      await page.getByLabel(`Time of frame ${i + 1}`).fill(String(times[i]));
    }
    await page.getByRole('button', { name: 'Analyze frames' }).click();
    const result = page.getByRole('region', { name: 'Persons found' });
    await result.waitFor({ timeout: HANG_GUARD_MS });
    expect(await result.locator('header').textContent()).toContain('2 persons');
    // Ben (left) is in the group shots only; Anna (right) in all three frames, her thumbnail merged in.
    const left = result.getByRole('article', { name: 'Person 1' });
    const right = result.getByRole('article', { name: 'Person 2' });
    expect(await left.locator('.mark').evaluateAll((marks) => marks.map((m) => m.getAttribute('data-frame')))).toEqual([
      '0',
      '2',
    ]);
    expect(await right.locator('.mark').evaluateAll((marks) => marks.map((m) => m.getAttribute('data-frame')))).toEqual(
      ['0', '1', '2'],
    );
    expect(await right.textContent()).toContain('from 0.00 s to 3.00 s');
    expect(await right.textContent()).toMatch(/confidence \d+%/);
    // The middle appearance (1.5 s of 0..3 s) sits half-way along the timeline.
    const bar = await right.locator('.timeline').boundingBox();
    const middle = await right.locator('.mark[data-frame="1"]').boundingBox();
    expect(
      Math.abs((middle?.x ?? 0) + (middle?.width ?? 0) / 2 - ((bar?.x ?? 0) + (bar?.width ?? 0) / 2)),
    ).toBeLessThanOrEqual(2);
    await expect
      .poll(() =>
        right
          .getByAltText('Face of person 2')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await screenshot(page, 'faces-analyze-merged');
  });

  it('names a frame without a time rather than sending a partial list', async () => {
    await page.getByLabel('Time of frame 2').fill('');
    await page.getByRole('button', { name: 'Analyze frames' }).click();
    await page.getByText('give a time to frame 2 too, or to none of them').waitFor();
  });

  it('takes frames from a local video at chosen times, uploads and analyses them, and explains an empty result', async () => {
    const video = join(scratch, 'presenter.mp4');
    writeFileSync(video, Buffer.from(await (await fetch(clipUrl)).arrayBuffer()));
    await page.reload();
    await page.getByRole('region', { name: 'Tools' }).waitFor();
    await tab('analyze-frames');
    await page.locator('.analyze input[type="file"]').setInputFiles(video);
    await page.getByLabel('Times to take frames at').fill('0, 1');
    await page.getByRole('button', { name: 'Take frames' }).click();
    // The empty first row is dropped; the two stills join the list with their times.
    await expect.poll(() => page.locator('.rows img.still').count(), { timeout: HANG_GUARD_MS }).toBe(2);
    expect(await page.getByLabel('Time of frame 2').inputValue()).toBe('1');
    await page.getByRole('button', { name: 'Analyze frames' }).click();
    const result = page.getByRole('region', { name: 'Persons found' });
    await result.waitFor({ timeout: HANG_GUARD_MS });
    // The sandbox recognises only its own files: a re-encoded still shows nobody there, and the tab says why.
    expect(await result.locator('header').textContent()).toContain('0 persons');
    await result.getByText('at least 80×80 pixels').waitFor();
    await screenshot(page, 'faces-analyze-local-video');
    await page.getByLabel('Times to take frames at').fill('0, 99');
    await page.getByRole('button', { name: 'Take frames' }).click();
    await page.getByText(/there is no frame at 99 s/).waitFor({ timeout: HANG_GUARD_MS });
  });

  it('shows the local camera only for a simulated session, and closes it', async () => {
    await tab('face-detection');
    await page.getByLabel('Media to detect faces in').fill(`${origin}/sandbox/sandbox-face.png`);
    await page.getByRole('button', { name: 'Detect faces' }).click();
    await page
      .getByRole('region', { name: 'Detected faces' })
      .getByRole('button', { name: 'Use for live face swap' })
      .click({ timeout: HANG_GUARD_MS });
    await tab('live-face-swap');
    await page.getByRole('button', { name: 'Create session' }).click();
    await confirmPrice(page);
    const session = page.locator('section.session');
    await session.waitFor({ timeout: HANG_GUARD_MS });
    await session.getByText('the session is simulated').waitFor();
    expect(await session.getByLabel('Processed stream').count()).toBe(0);
    await session.getByRole('button', { name: 'Start camera' }).click();
    const camera = session.getByLabel('Your camera');
    await expect
      .poll(() => camera.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: HANG_GUARD_MS })
      .toBe(640);
    expect(await camera.evaluate((v: HTMLVideoElement) => v.videoHeight)).toBe(480);
    // The picture in the shot is a frame the camera has played, not the first black one.
    await expect.poll(() => camera.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
    await screenshot(page, 'faces-live-camera');
    await session.getByRole('button', { name: 'Close session' }).click();
    await expect.poll(() => page.locator('section.session').count()).toBe(0);
    expect(await bridge<unknown[]>('live.sessions')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
