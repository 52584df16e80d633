// The editor's local preview end to end: ffmpeg renders the scene on the host, the page reads the file
// back and plays it. The frame must keep the output's aspect and the length must match the scene; a
// talking avatar's text is spoken by a draft voice, so labelled, and its preview lasts as long as it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openStudio, screenshot, type StudioSession } from './browser';
import { newProject } from './editor-helpers';

/** The preview video's frame size and length once the page has its metadata. */
async function playedMedia(page: Page): Promise<{ width: number; height: number; duration: number }> {
  const video = page.getByLabel('Preview video');
  await video.waitFor({ timeout: 90_000 });
  return video.evaluate(
    (el: HTMLVideoElement) =>
      new Promise<{ width: number; height: number; duration: number }>((resolve, reject) => {
        const read = () => resolve({ width: el.videoWidth, height: el.videoHeight, duration: el.duration });
        if (el.readyState >= 1) read();
        else {
          el.addEventListener('loadedmetadata', read, { once: true });
          el.addEventListener('error', () => reject(new Error('the preview does not play')), { once: true });
        }
      }),
  );
}

describe('local preview in Chromium', () => {
  let studio: StudioSession;

  beforeAll(async () => {
    studio = await openStudio({ hash: '#/editor' });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('renders the current project with ffmpeg and plays it in the editor', async () => {
    const { page } = studio;
    const assets = page.getByRole('region', { name: 'Assets' });
    const avatar = assets.getByRole('button', { name: /^Add avatar / }).first();
    await avatar.waitFor({ timeout: 90_000 });
    await avatar.click();

    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const video = page.getByLabel('Preview video');
    const media = await playedMedia(page);
    // A new project is 16:9 with one 5 s scene; the preview is a smaller render of it.
    expect(media.width).toBeGreaterThan(0);
    expect(media.width).toBeLessThan(1920);
    expect(media.width / media.height).toBeCloseTo(16 / 9, 1);
    expect(media.duration).toBeCloseTo(5, 0);
    await screenshot(page, 'editor-preview');

    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await video.waitFor({ state: 'detached' });
    expect(studio.consoleErrors).toEqual([]);
  });

  // Fails when the text stays silent or the preview keeps the scene's 5.0 s (mutations: no draft voice
  // in the media toolkit; talkingLength returning the scene's length).
  it("speaks a talking avatar's script in a labelled draft voice and lasts as long as it", async () => {
    const { page } = studio;
    await newProject(page, 'Talking avatar', 'Draft voice preview', { discard: true });
    const assets = page.getByRole('region', { name: 'Assets' });
    await assets.getByText('Avatars', { exact: true }).click();
    await assets.getByRole('button', { name: /^Add avatar / }).first().click();
    await page.keyboard.press('Escape');
    await assets.getByText('Voices', { exact: true }).click();
    await assets.getByRole('button', { name: 'Use voice Ava for this scene' }).click();
    const script = page.getByRole('textbox', { name: 'Voiceover text' });
    await script.fill('Welcome to the studio. This talking avatar says a little more than five seconds of text, so its preview has to follow the script.');
    await script.blur();

    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const media = await playedMedia(page);
    expect(media.duration).toBeGreaterThan(6);
    const draft = page.getByRole('region', { name: 'Draft voice' });
    expect(await draft.textContent()).toMatch(/Draft voice.*not the service's voice.*Scene 1 \(.*\), voice: espeak-ng.*, en-us, female, 180 words a minute, for Ava/s);
    const facts = (await page.getByLabel('Preview facts').textContent()) ?? '';
    expect(facts).toContain('as long as its speech');
    expect(Number(/([\d.]+) s/.exec(facts)?.[1])).toBeCloseTo(media.duration, 0);
    await screenshot(page, 'editor-preview-talking-draft-voice');

    // The editor's scene takes the speech's length on request (one undo step), and the offer goes.
    const fit = page.getByRole('button', { name: /^Make the scene [\d.]+ s in the editor$/ });
    const offered = Number(/([\d.]+) s/.exec((await fit.textContent()) ?? '')?.[1]);
    expect(offered).toBeGreaterThanOrEqual(Number(media.duration.toFixed(1)));
    await fit.click();
    await fit.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByLabel('Preview video').waitFor({ state: 'detached' });
    await page.locator('.n-modal').waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Scene duration' }).inputValue()).toBe(offered.toFixed(1));
    await screenshot(page, 'editor-talking-scene-fitted-to-speech');
    expect(studio.consoleErrors).toEqual([]);
  });
});
