// The link pre-flight in Chromium against the web host and its sandbox: a link the server answers
// with 404 is marked on the canvas with its name and reason, listed in Problems, and the Create
// dialog re-checks every link and will not send the paid job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type StudioSession } from './browser';
import { addAvatarToScene, addMediaLink, openEditor, setField } from './editor-helpers';
import { HANG_GUARD_MS } from '../wait';

describe('editor: link pre-flight', () => {
  let studio: StudioSession;
  let origin = '';
  beforeAll(async () => {
    ({ studio, origin } = await openEditor());
  }, 120_000);
  afterAll(() => studio?.close());

  it('marks a 404 link on the canvas and in Problems, and the Create dialog will not send it', async () => {
    const { page } = studio;
    await addAvatarToScene(page, 'Anna (sandbox cartoon)');
    await page.keyboard.press('Escape');
    await page.getByText('Audio URL', { exact: true }).click();
    await setField(page, 'Voice URL', `${origin}/sandbox/voice-sandbox_ava.mp3`);
    await addMediaLink(page, `${origin}/sandbox/gone-logo.png`);

    const problems = page.getByRole('region', { name: 'Problems' });
    await expect
      .poll(() => problems.textContent(), { timeout: HANG_GUARD_MS })
      .toContain('link is broken (HTTP 404 Not Found)');
    const mark = page.getByRole('note', { name: /gone-logo\.png: the image link is broken \(HTTP 404/ });
    await mark.waitFor();
    await screenshot(page, 'editor-preflight-broken-link');

    await page.getByRole('button', { name: 'Create video' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/1 broken link: the service would fail on it/).waitFor({ timeout: HANG_GUARD_MS });
    expect(await dialog.getByRole('button', { name: 'Send to the service' }).isDisabled()).toBe(true);
    await screenshot(page, 'editor-preflight-create-blocked');
    await page.keyboard.press('Escape');

    // Check links asks every server again; with the broken element gone, all links answer.
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: /gone-logo\.png in scene 1/ })
      .click();
    await page.keyboard.press('Delete');
    await problems.getByRole('button', { name: 'Check links' }).click();
    await expect.poll(() => problems.textContent(), { timeout: HANG_GUARD_MS }).toContain('All 1 link checked');
    expect(await page.getByRole('note').count()).toBe(0);
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('flags a voice longer than its scene and fits the scene in one click, or follows the voice', async () => {
    const { page } = studio;
    const problems = page.getByRole('region', { name: 'Problems' });
    const duration = page.getByRole('textbox', { name: 'Scene duration' });
    await page.keyboard.press('Escape');
    await setField(page, 'Scene duration', '2');
    await expect
      .poll(() => problems.textContent())
      .toContain('the voice lasts 4.4 s but the scene 2.0 s; the last 2.4 s would be cut.');
    await screenshot(page, 'editor-voice-too-long');
    await problems.getByRole('button', { name: 'Fit scene to voice' }).click();
    await expect.poll(() => duration.inputValue()).toBe('4.4');
    // Problems are checked again after the change lands, not in the same moment.
    await expect.poll(() => problems.textContent()).not.toContain('would be cut');

    // The project option: scene lengths follow their voices from the moment it is on.
    await setField(page, 'Scene duration', '2');
    await expect.poll(() => problems.textContent()).toContain('would be cut');
    await page.getByRole('switch', { name: 'Scene lengths follow their voices' }).click();
    await expect.poll(() => duration.inputValue()).toBe('4.4');
    await expect.poll(() => problems.textContent()).not.toContain('would be cut');
    await screenshot(page, 'editor-follow-voice');

    // Trim voice: the scene keeps its length and speaks a copy of the voice cut to it.
    await page.getByRole('switch', { name: 'Scene lengths follow their voices' }).click();
    await setField(page, 'Scene duration', '2');
    await expect.poll(() => problems.textContent()).toContain('would be cut');
    await problems.getByRole('button', { name: 'Trim voice' }).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Voice URL', exact: true }).inputValue(), {
        timeout: HANG_GUARD_MS,
      })
      .toMatch(/^file:.*voice-sandbox_ava-2\.0s\.mp3$/);
    // The copy is checked like any link, and is as long as the scene.
    await expect
      .poll(() => problems.textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/All 1 link checked\.(?!.*would be cut)/);
    expect(await duration.inputValue()).toBe('2.0');
    await screenshot(page, 'editor-trim-voice');
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('warns in Problems and on the canvas about an element sticking out of the frame or stretched at the frame size', async () => {
    const { page } = studio;
    const problems = page.getByRole('region', { name: 'Problems' });
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: /^Anna \(sandbox cartoon\) in scene 1/ })
      .click();
    await setField(page, 'X', '-400');
    await expect
      .poll(() => problems.textContent())
      .toMatch(/sticks out of the frame \(\d+ px on the left\); the part outside is not shown\./);
    await page.getByRole('note', { name: /Anna.*sticks out of the frame/ }).waitFor();
    await screenshot(page, 'editor-partly-off-frame');

    // Wider than the frame: the width stops at the frame's (scale 1) while the height stays.
    await setField(page, 'X', '0');
    await setField(page, 'Width', '5000');
    await expect
      .poll(() => problems.textContent())
      .toContain("stopped at the frame's width (a scale of 1, the most the service takes) and is stretched wide");
    await page.getByRole('note', { name: /Anna.*stopped at the frame's width/ }).waitFor();
    await screenshot(page, 'editor-scale-at-limit');
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);
});
