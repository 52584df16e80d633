// A scene's voiceover in Chromium: generated from the scene, it lands there although the user selects
// an element and goes to another workspace while the speech job runs (the sandbox holds it until then),
// and it is in the project after a reload. The host's reactor puts it in place; no component has to be
// on screen for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecentProject, openStudio, screenshot, type StudioSession } from './browser';
import { discardIfAsked } from './editor-helpers';
import { paidAction } from './price';
import { holdSandboxJobs } from './sandbox-control';
import { fileHost } from './studio-host';
import { HANG_GUARD_MS } from '../wait';

describe('scene voiceovers in Chromium', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    studio = await openStudio({ hash: '#/editor' });
    await studio.page
      .getByRole('button', { name: /^Add avatar / })
      .first()
      .waitFor({ timeout: 90_000 });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('lands in its scene while the user works elsewhere, and stays after a reload', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByText('New project…').click();
    await discardIfAsked(page, page.getByRole('radio', { name: /Avatar video/ }));
    await page.getByRole('radio', { name: /Avatar video/ }).click();
    await page.getByRole('textbox', { name: 'New project name' }).fill('Voiceover lands');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page
      .getByRole('button', { name: /^Add avatar / })
      .first()
      .click();
    // The avatar is added (and selected) asynchronously: wait for it before clearing the selection.
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: /in scene 1$/ })
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('radio', { name: 'Voiceover from text' }).waitFor();

    const assets = page.getByRole('region', { name: 'Assets' });
    await assets.getByText('Voices', { exact: true }).click();
    await assets.getByRole('button', { name: 'Use voice Ava for this scene' }).click();
    const script = page.getByRole('textbox', { name: 'Voiceover text' });
    await script.fill('This voiceover lands in scene one while I look elsewhere.');
    await script.blur();
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByRole('toolbar', { name: 'Editor toolbar' }).textContent()).toContain('Saved');

    // Cancel on the price question charges nothing; Send charges what the studio recorded. The sandbox
    // holds the speech job until the user is elsewhere: a job of a second could end before they left.
    await holdSandboxJobs(fileHost().dataDir, true);
    await paidAction(page, 'tts', () => page.getByRole('button', { name: 'Generate voiceover' }).click(), {
      cancelFirst: true,
    });
    await page.getByRole('status').filter({ hasText: 'Generating the voiceover' }).waitFor();
    // Away from the scene inspector at once: an element selected, then another workspace.
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: /in scene 1$/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await page.getByRole('main', { name: 'library workspace' }).waitFor();
    await holdSandboxJobs(fileHost().dataDir, false);
    await page
      .getByRole('main', { name: 'library workspace' })
      .getByText('Completed')
      .first()
      .waitFor({ timeout: HANG_GUARD_MS });
    await page.getByRole('button', { name: 'Editor', exact: true }).click();
    await page.keyboard.press('Escape');
    // The reactor writes the project file and then tells the page; on a loaded machine that took over 15 s.
    await expect.poll(() => page.getByText('Voiceover ready.').count(), { timeout: HANG_GUARD_MS }).toBeGreaterThan(0);
    await screenshot(page, 'editor-voiceover-landed');

    // The host wrote it into the saved project too: a fresh page reopens it with the audio.
    await page.reload();
    await openRecentProject(page, /^Voiceover lands ·/);
    await discardIfAsked(
      page,
      page.getByRole('toolbar', { name: 'Editor toolbar' }).filter({ hasText: 'Voiceover lands' }),
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByText('Voiceover ready.').count(), { timeout: HANG_GUARD_MS }).toBeGreaterThan(0);
    expect(studio.consoleErrors).toEqual([]);
  });
});
