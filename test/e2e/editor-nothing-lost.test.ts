// Unsaved work in the editor, in Chromium against the web host: New asks before it replaces the
// project, a reload asks first, and the autosave comes back in one recovery list whose Discard works.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, studioDataDir, type StudioSession } from './browser';
import { HANG_GUARD_MS } from '../wait';

/** How many scenes each autosaved project on the host's disk has. */
function autosavedSceneCounts(): number[] {
  const dir = join(studioDataDir(), 'projects', 'autosave');
  const names = (() => {
    try {
      return readdirSync(dir).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
    } catch {
      return [];
    }
  })();
  return names.map(
    (name) =>
      (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { project: { scenes: unknown[] } }).project.scenes.length,
  );
}

describe('editor: nothing lost', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    studio = await openStudio({ hash: '#/editor' });
  }, 60_000);
  afterAll(() => studio?.close());

  it('asks before New replaces unsaved work, and after a reload offers the autosave back', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Add scene' }).click();
    await page.getByRole('button', { name: 'Add scene' }).click();
    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByRole('menuitem', { name: 'New project' }).or(page.getByLabel('New project')).first().click();
    await page.getByText(/Save changes to/).waitFor();
    await screenshot(page, 'editor-save-prompt-before-new');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText(/Save changes to/).waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog', { name: /New project/ }).count()).toBe(0);

    // The autosave follows the last change shortly; once the project with both new scenes is on the
    // host's disk, reload (the page asks; the test accepts).
    await expect.poll(autosavedSceneCounts, { timeout: HANG_GUARD_MS }).toContain(3);
    let asked = false;
    page.once('dialog', (d) => {
      asked = d.type() === 'beforeunload';
      void d.accept();
    });
    await page.reload();
    expect(asked).toBe(true);
    const banner = page.getByRole('alert', { name: 'Recovered work' });
    await banner.waitFor();
    expect(await banner.getByRole('button', { name: /^Restore / }).count()).toBe(1);
    await screenshot(page, 'editor-recovery-list');
    await banner.getByRole('button', { name: /^Discard autosave/ }).click();
    await banner.waitFor({ state: 'detached' });
    // After the reload the editor asks for the recovery list; its answer, shown, has nothing in it.
    const listed = page.waitForResponse((r) => r.url().includes('/bridge/call/projects.listRecovery'));
    await page.reload();
    await page.getByRole('navigation', { name: 'Workspaces' }).waitFor();
    await (await listed).finished();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.getByRole('alert', { name: 'Recovered work' }).count()).toBe(0);
    expect(studio.consoleErrors.filter((e) => !/beforeunload/i.test(e))).toEqual([]);
  }, 300_000);

  it('makes a project of a custom size from New project, refusing a side the service does not take', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByRole('menuitem', { name: 'New project' }).or(page.getByLabel('New project')).first().click();
    const dialog = page.locator('form.newp');
    await dialog.waitFor();
    await dialog.locator('.n-base-selection').click();
    await page.getByText('Custom size…', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Custom width' }).fill('5000');
    await dialog.getByRole('textbox', { name: 'Custom width' }).blur();
    await dialog.getByText(/Width and height must be whole pixels from 16 to 3,840/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Create project' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Custom width' }).fill('1000');
    await dialog.getByRole('textbox', { name: 'Custom height' }).fill('1000');
    await dialog.getByRole('textbox', { name: 'Custom height' }).blur();
    await dialog.getByRole('textbox', { name: 'New project name' }).fill('Square custom');
    await screenshot(page, 'editor-new-project-custom-size');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect
      .poll(() => page.getByRole('toolbar', { name: 'Editor toolbar' }).textContent())
      .toContain('Square custom');
    await page.getByText('Avatar video · 1000×1000').waitFor();
  }, 300_000);
});
