import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openStudio, screenshot, type StudioSession } from './browser';
import { confirmPrice } from './price';
import { HANG_GUARD_MS } from '../wait';

async function bridge<T>(page: Page, channel: string, ...args: unknown[]): Promise<T> {
  const outcome = await page.evaluate(
    async ({ channel, args }) => {
      const response = await fetch(`/bridge/call/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
        credentials: 'same-origin',
      });
      return (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
    },
    { channel, args },
  );
  if (!outcome.ok) throw new Error(`${channel}: ${outcome.error?.message}`);
  return outcome.value as T;
}

/** Where a drawn face box sits on the shown picture, in the picture's own pixels. */
async function drawnBoxes(page: Page, naturalWidth: number): Promise<number[][]> {
  const region = page.getByRole('region', { name: 'Detected faces' });
  const picture = await region.getByAltText('Analysed frame').boundingBox();
  const scale = naturalWidth / (picture?.width ?? 1);
  const rects = region.locator('g.face rect');
  const boxes: number[][] = [];
  for (let i = 0; i < (await rects.count()); i += 1) {
    const b = await rects.nth(i).boundingBox();
    if (!b || !picture) continue;
    boxes.push([b.x - picture.x, b.y - picture.y, b.width, b.height].map((v) => Math.round(v * scale)));
  }
  return boxes;
}

/** Screen boxes are whole CSS pixels of a scaled picture: allow 3 source pixels either way. */
const near = (got: number[][], want: number[][]) =>
  got.length === want.length && got.every((box, i) => box.every((v, j) => Math.abs(v - (want[i]?.[j] ?? NaN)) <= 3));

describe('Face tools in Chromium against the sandbox', () => {
  let studio: StudioSession;
  let origin = '';
  let clipUrl = '';

  beforeAll(async () => {
    studio = await openStudio();
    const avatars = await bridge<{ url: string; avatar_id: string }[]>(studio.page, 'catalogue.avatars', { from: 2 });
    const anna = avatars.find((a) => a.avatar_id === 'SandboxAnna');
    clipUrl = anna?.url ?? '';
    origin = new URL(clipUrl).origin;
    await studio.page.getByRole('button', { name: 'Tools', exact: true }).click();
    await studio.page.getByRole('region', { name: 'Tools' }).locator('.n-tabs-tab[data-name="face-detection"]').click();
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('draws the face of a sandbox presenter picture where it is, with six labelled landmarks and crops', async () => {
    const { page } = studio;
    await page.getByLabel('Media to detect faces in').fill(`${origin}/sandbox/sandbox-face.png`);
    await page.getByRole('button', { name: 'Detect faces' }).click();
    const region = page.getByRole('region', { name: 'Detected faces' });
    await region.waitFor({ timeout: HANG_GUARD_MS });
    // The sandbox draws Dana's face as a circle of radius 120 around (256, 220) in a 512×512 picture.
    await expect.poll(async () => near(await drawnBoxes(page, 512), [[136, 100, 240, 240]])).toBe(true);
    expect(await region.locator('g.landmark').count()).toBe(6);
    expect(await region.locator('g.landmark text').allTextContents()).toEqual(['LE', 'RE', 'N', 'M', 'ML', 'MR']);
    await region.getByRole('img', { name: 'Face 1' }).waitFor();
    await screenshot(page, 'faces-detect-image');
    await region.getByRole('button', { name: 'Use for live face swap' }).click();
    await region.getByText('Chosen for live face swap').waitFor();
  });

  it('draws a presenter clip frame by frame, stepping through the frame strip', async () => {
    const { page } = studio;
    await page.getByLabel('Media to detect faces in').fill(clipUrl);
    await page.getByLabel('Video frames').fill('4');
    await page.getByRole('button', { name: 'Detect faces' }).click();
    const strip = page.getByRole('list', { name: 'Analysed frames' });
    await expect.poll(() => strip.getByRole('button').count(), { timeout: HANG_GUARD_MS }).toBe(4);
    // Anna: radius 78 around (320, 150) in a 640×360 clip, in every frame.
    await strip.getByRole('button').nth(2).click();
    await expect.poll(() => strip.getByRole('button').nth(2).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => near(await drawnBoxes(page, 640), [[242, 72, 156, 156]])).toBe(true);
    expect(await page.getByRole('region', { name: 'Detected faces' }).textContent()).toMatch(/\d\.\d\d s/);
    await screenshot(page, 'faces-detect-clip');
  });

  it('says plainly when there is no face, with the guidance', async () => {
    const { page } = studio;
    await page.getByLabel('Media to detect faces in').fill(`${origin}/sandbox/sandbox-backdrop.png`);
    await page.getByRole('button', { name: 'Detect faces' }).click();
    await page.getByText('at least 80×80 pixels').waitFor({ timeout: HANG_GUARD_MS });
    expect(await page.getByText('No faces detected').count()).toBe(1);
    await screenshot(page, 'faces-detect-none');
    expect(studio.consoleErrors).toEqual([]);
  });

  it('creates a live session from the detected face, updates and closes it', async () => {
    const { page } = studio;
    await page.getByRole('region', { name: 'Tools' }).locator('.n-tabs-tab[data-name="live-face-swap"]').click();
    const chosen = page.getByRole('list', { name: 'Chosen faces' });
    // The opts are Dana's four first landmarks as detected, not typed.
    expect(await chosen.locator('code').textContent()).toBe('214,196:298,196:256,234:256,274');
    await page.getByRole('button', { name: 'Create session' }).click();
    await confirmPrice(page);
    const session = page.locator('section.session');
    await session.waitFor({ timeout: HANG_GUARD_MS });
    await session.getByText('the session is simulated').waitFor();
    const id = (await session.getAttribute('aria-label'))?.replace('Live session ', '') ?? '';
    expect(await bridge<Array<{ id: string; faces: unknown[] }>>(page, 'live.sessions')).toEqual([
      expect.objectContaining({ id, faces: [expect.anything()] }),
    ]);
    await screenshot(page, 'faces-live-session');
    await session.getByRole('button', { name: 'Update faces' }).click();
    await expect.poll(() => session.getByRole('button', { name: 'Update faces' }).isEnabled()).toBe(true);
    expect(await page.locator('.live .problem').count()).toBe(0);
    await session.getByRole('button', { name: 'Close session' }).click();
    await expect.poll(() => page.locator('section.session').count()).toBe(0);
    expect(await bridge<unknown[]>(page, 'live.sessions')).toEqual([]);
    expect(studio.consoleErrors).toEqual([]);
  });
});
