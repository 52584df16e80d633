// Unsaved work in the editor, in Chromium against the web host: New asks before it replaces the
// project, a reload asks first, and the autosave comes back in one recovery list whose Discard works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';

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

    // The autosave runs 3 s after the last change; then reload (the page asks; the test accepts).
    await page.waitForTimeout(3500);
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
    await page.reload();
    await page.getByRole('navigation', { name: 'Workspaces' }).waitFor();
    await page.waitForTimeout(800);
    expect(await page.getByRole('alert', { name: 'Recovered work' }).count()).toBe(0);
    expect(studio.consoleErrors.filter((e) => !/beforeunload/i.test(e))).toEqual([]);
  }, 60_000);
});
