// The editor's local preview end to end: ffmpeg renders the scene on the host, the page reads the file
// back and plays it. The frame must keep the output's aspect and the length must match the scene.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';

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
    await video.waitFor({ timeout: 90_000 });
    const media = await video.evaluate(
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
});
