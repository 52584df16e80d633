// A host killed mid-edit (SIGKILL, as a crash) loses none of the work it autosaved (the editor
// autosaves within 1.5 s of a change): the studio on the same data folder lists the project as
// recovered, and Restore brings back every change, including the last one, killed right after its
// autosave was answered.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newStudioContext, screenshot } from './browser';
import { setField } from './editor-helpers';
import { restartableStudio } from './host-process';

const studio = restartableStudio('studio-e2e-killed-');

async function openEditorAt(url: string): Promise<Page> {
  const context = await newStudioContext(studio.browser);
  const page = await context.newPage();
  await page.goto(`${url}#/editor`);
  await page.getByRole('button', { name: /^Add avatar / }).first().waitFor({ timeout: 90_000 });
  return page;
}

describe('editor: a killed host', () => {
  it('gives back every change up to the last one, autosaved a moment before the kill', async () => {
    const before = await openEditorAt((await studio.start()).url);
    await before.getByRole('button', { name: 'Add scene' }).click();
    await before.getByRole('button', { name: 'Add scene' }).click();
    await setField(before, 'Scene name', 'Closing shot');
    // The last change; the kill comes as soon as the host has answered its autosave.
    const saved = before.waitForResponse((r) => r.url().includes('/bridge/call/projects.autosave') && (r.request().postData() ?? '').includes('Spring launch'), { timeout: 30_000 });
    await setField(before, 'Project name', 'Spring launch');
    await saved;
    await studio.stop('SIGKILL');
    // The open page notices within a heartbeat: the status dot turns red and says so.
    await before.getByText('Host not reachable').waitFor({ timeout: 15_000 });
    expect(await before.locator('.status .dot').getAttribute('class')).toContain('dot-bad');
    await screenshot(before, 'shell-host-down');
    await before.context().close();

    const after = await openEditorAt((await studio.start()).url);
    const banner = after.getByRole('alert', { name: 'Recovered work' });
    await banner.waitFor({ timeout: 30_000 });
    await screenshot(after, 'editor-killed-host-recovery');
    await banner.getByRole('button', { name: 'Restore Spring launch' }).click();
    await expect.poll(() => after.getByRole('textbox', { name: 'Project name' }).inputValue()).toBe('Spring launch');
    await expect.poll(() => after.getByText(/of 3$/).count()).toBeGreaterThan(0);
    expect(await after.getByRole('region', { name: 'Timeline' }).getByText('Closing shot').count()).toBe(1);
    await screenshot(after, 'editor-killed-host-restored');
  }, 240_000);
});
