import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openStudio, screenshot, type StudioSession } from './browser';
import { makeImage, makeVideo } from '../fixtures/composition/make-media';
import { bridgeCall as bridge, confirmPrice, paidAction, sandboxBalance } from './price';
import { HANG_GUARD_MS } from '../wait';

const jobCount = async (page: Page, kind: string) =>
  (await bridge<{ kind: string }[]>(page, 'jobs.list')).filter((j) => j.kind === kind).length;

/** Whether a <video> has decoded its first frame (it plays). */
const playable = (page: Page, selector: string) =>
  page.locator(selector).evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth > 0);

describe('Lip sync and character swap in Chromium against the sandbox', () => {
  let studio: StudioSession;
  let origin = '';
  let voiceUrl = '';
  const dir = mkdtempSync(join(tmpdir(), 'studio-job-tools-'));
  const fast = join(dir, 'fast-90fps.mp4');
  const long = join(dir, 'long-121s.mp4');
  // A JPEG, as most characters are photos: ffprobe calls it image2 with a one-frame length, which once read as a video.
  const character = join(dir, 'character.jpg');

  beforeAll(async () => {
    // A second of video at 90 fps: above the 60 fps lip sync takes (1210).
    makeVideo(fast, { colour: 'testsrc2', width: 320, height: 240, seconds: 1, fps: 90, withAudio: true });
    // Just over the 120 s character swap takes, at a size that encodes in a moment.
    makeVideo(long, { colour: 'navy', width: 64, height: 64, seconds: 121, fps: 2 });
    makeImage(character, { colour: 'orange', width: 256, height: 256 });
    studio = await openStudio();
    const avatars = await bridge<{ url: string }[]>(studio.page, 'catalogue.avatars', { from: 2 });
    origin = new URL(avatars[0].url).origin;
    const voices = await bridge<{ preview: string }[]>(studio.page, 'catalogue.voices', { from: 3 });
    voiceUrl = voices.find((v) => v.preview)?.preview ?? '';
    await studio.page.getByRole('button', { name: 'Tools', exact: true }).click();
  });
  afterAll(async () => {
    await studio?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a 90 fps local video before sending, with the reason and 1210', async () => {
    const { page } = studio;
    const region = page.getByRole('region', { name: 'Tools' });
    await region.locator('.n-tabs-tab[data-name="lipsync"]').click();
    await page.getByLabel('Video: local file').setInputFiles(fast);
    await page.getByLabel('Audio link').fill(voiceUrl);
    const refusals = page.getByTestId('tool-refusals');
    await refusals.waitFor({ timeout: HANG_GUARD_MS });
    expect(await refusals.locator('[data-check="fps-too-high"]').textContent()).toMatch(/90 fps.*at most 60 fps.*1210/);
    expect(await page.getByRole('figure', { name: 'Video' }).getByTestId('media-facts').textContent()).toMatch(
      /^1\.0 s · 320×240 · 90 fps · \d+ KB · with sound$/,
    );
    expect(await page.getByRole('button', { name: 'Lip sync', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'tools-lipsync-refused');
    // The host refuses too, so nothing can be sent around the form.
    const video = await page.getByLabel('Video link').inputValue();
    await expect(
      bridge(page, 'tools.lipsyncSend', { video, audio: voiceUrl, confirmation: { by: 'script' } }),
    ).rejects.toThrow(/Not sent: .*1210/);
    expect(await jobCount(page, 'lipsync')).toBe(0);
  });

  it('lip syncs a sandbox clip to a voice and plays the result beside the original', async () => {
    const { page } = studio;
    const clip = `${origin}/sandbox/sandbox-motion.mp4`;
    await page.getByLabel('Video link').fill(clip);
    const facts = page.getByRole('figure', { name: 'Video' }).getByTestId('media-facts');
    await expect
      .poll(() => facts.textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/^3\.0 s · 640×360 · 25 fps · \d+ KB · with sound$/);
    await expect
      .poll(() => page.getByRole('figure', { name: 'Audio' }).getByTestId('media-facts').textContent())
      .toMatch(/^\d+\.\d s · \d+ KB$/);
    // The voice preview is longer than the clip: warned, not refused.
    await page.getByTestId('tool-warnings').locator('[data-check="length-mismatch"]').waitFor();
    expect(await page.getByTestId('tool-refusals').count()).toBe(0);
    await paidAction(page, 'lipsync', () => page.getByRole('button', { name: 'Lip sync', exact: true }).click(), {
      cancelFirst: true,
    });
    const result = page.getByRole('region', { name: 'Result' });
    await expect.poll(() => result.getAttribute('data-phase'), { timeout: HANG_GUARD_MS }).toBe('completed');
    await expect.poll(() => playable(page, '[data-testid="result-video"]'), { timeout: HANG_GUARD_MS }).toBe(true);
    // Download saves through the host's verified download into a chosen folder (recorded with every copy).
    expect(await result.getByRole('button', { name: 'Download…' }).count()).toBe(1);
    await screenshot(page, 'tools-lipsync-result', { fullStage: true });
    expect(await jobCount(page, 'lipsync')).toBe(1);
    // The same request again asks first: a second paid job only when the user says so.
    const balance = await sandboxBalance(page);
    await page.getByRole('button', { name: 'Lip sync', exact: true }).click();
    await confirmPrice(page);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Send again?').waitFor();
    expect(await dialog.textContent()).toContain('The same lip sync request went to');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await jobCount(page, 'lipsync')).toBe(1);
    expect(await sandboxBalance(page)).toBe(balance);
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('refuses a character swap source longer than 120 s before sending, showing no price', async () => {
    const { page } = studio;
    await page.getByRole('region', { name: 'Tools' }).locator('.n-tabs-tab[data-name="character-swap"]').click();
    await page.getByLabel('Character image link').fill(`${origin}/sandbox/sandbox-face.png`);
    await page.getByLabel('Source video: local file').setInputFiles(long);
    const refusals = page.getByTestId('tool-refusals');
    await refusals.waitFor({ timeout: HANG_GUARD_MS });
    expect(await refusals.textContent()).toMatch(/lasts 121 s; character swap takes 1 to 120 s/);
    expect(await page.getByRole('button', { name: 'Swap…' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('swap-cost').count()).toBe(0);
    await screenshot(page, 'tools-swap-refused', { fullStage: true });
    const video = await page.getByLabel('Source video link').inputValue();
    await expect(
      bridge(page, 'tools.swapSend', { image: `${origin}/sandbox/sandbox-face.png`, video, confirmedCredits: 240 }),
    ).rejects.toThrow(/Not sent: .*120 s/);
    expect(await jobCount(page, 'character-swap')).toBe(0);
  });

  it('shows the cost per started 5 s (12 s at 720p = 30 credits), asks, sends and plays the result', async () => {
    const { page } = studio;
    // The character is a local picture (uploaded to the sandbox's storage when sent); the source is the
    // lip sync's result, picked from the Library.
    await page.getByLabel('Character image: local file').setInputFiles(character);
    await page.getByRole('figure', { name: 'Character image' }).getByAltText('Character image (first frame)').waitFor();
    await page.getByLabel('Source video from the Library').click();
    await page.locator('.n-base-select-option').filter({ hasText: 'Lip sync · sandbox-motion.mp4' }).click();
    const lipsync = (await bridge<{ kind: string; resultUrl: string }[]>(page, 'jobs.list')).find(
      (j) => j.kind === 'lipsync',
    );
    expect(await page.getByLabel('Source video link').inputValue()).toBe(lipsync?.resultUrl);
    const cost = page.getByTestId('swap-cost');
    // Left empty, the duration is the video's own length, shown to the hundredth of a second that is sent
    // and billed: about 3 s (each ffmpeg generation encodes the clip a frame or so longer or shorter),
    // one started 5 s at 10 credits.
    await expect
      .poll(() => cost.textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(
        /Cost: 10 credits.*\b\d+(\.\d{1,2})? s at 720p: 1 started 5 s × 10 credits = 10 credits \(the video's own length\)/,
      );
    const ownSeconds = Number(/(\d+(?:\.\d+)?) s at 720p/.exec((await cost.textContent()) ?? '')?.[1]);
    expect(Math.abs(ownSeconds - 3)).toBeLessThanOrEqual(0.1);
    await page.getByLabel('Duration in seconds').fill('12');
    await page.getByLabel('Duration in seconds').blur();
    await expect
      .poll(() => cost.textContent())
      .toMatch(/Cost: 30 credits.*12 s at 720p: 3 started 5 s × 10 credits = 30 credits/);
    await page.getByText('Replace', { exact: true }).click();
    await page.getByLabel('Prompt').fill('A calm presenter in a studio');
    expect(await page.getByTestId('prompt-count').textContent()).toBe('28 / 500 characters');
    await screenshot(page, 'tools-swap-cost', { fullStage: true });
    // Cancel charges nothing; Send charges exactly the 30 credits the question named.
    const { said } = await paidAction(
      page,
      'character-swap',
      () => page.getByRole('button', { name: 'Swap for 30 credits…' }).click(),
      { cancelFirst: true },
    );
    expect(said).toContain('12 s at 720p: 3 started 5 s × 10 credits = 30 credits');
    expect(said).toMatch(/Price: 30 credits/);
    const result = page.getByRole('region', { name: 'Result' });
    await expect.poll(() => result.getAttribute('data-phase'), { timeout: 90_000 }).toBe('completed');
    await expect.poll(() => playable(page, '[data-testid="result-video"]'), { timeout: HANG_GUARD_MS }).toBe(true);
    const jobs = await bridge<{ kind: string; request: Record<string, unknown>; costEstimate: { credits: number } }[]>(
      page,
      'jobs.list',
    );
    const swap = jobs.find((j) => j.kind === 'character-swap');
    expect(swap?.request).toMatchObject({
      duration: 12,
      resolution: '720p',
      mode: 'replace',
      prompt: 'A calm presenter in a studio',
      video: lipsync?.resultUrl,
    });
    expect(swap?.request.image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\.jpg$/);
    expect(swap?.costEstimate.credits).toBe(30);
    await screenshot(page, 'tools-swap-result', { fullStage: true });
    // Both jobs are in the Library like every other job.
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    // A row each, kind and request in columns of their own (a toast may name the same job: only rows count).
    const libraryRow = (kind: string, request: string | RegExp) =>
      page.getByRole('row').filter({ hasText: kind }).filter({ hasText: request });
    await libraryRow('Character swap', /replace · .+-character\.jpg/).waitFor();
    await libraryRow('Lip sync', 'sandbox-motion.mp4 + voice-sandbox_ava.mp3').waitFor();
    await screenshot(page, 'tools-in-library');
    expect(studio.consoleErrors).toEqual([]);
    // Two paid jobs and a 12 s swap rendered: 35 s beside busy loops, so a guard of its own.
  }, 300_000);
});
