// A host killed mid-edit (SIGKILL, as a crash) loses none of the work it autosaved (the editor
// autosaves within 1.5 s of a change): the studio on the same data folder lists the project as
// recovered, and Restore brings back every change, including the last one, killed right after its
// autosave was answered.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HANG_GUARD_MS } from '../wait';
import { newStudioContext, screenshot } from './browser';
import { setField } from './editor-helpers';
import { restartableStudio } from './host-process';
import { watchErrors, type PageErrors } from './outage';

const studio = restartableStudio('studio-e2e-killed-');

async function openEditorAt(url: string, errors: PageErrors): Promise<Page> {
  const context = await newStudioContext(studio.browser);
  const page = await context.newPage();
  errors.watch(page);
  await page.goto(`${url}#/editor`);
  // The host lists the sandbox's avatars once the sandbox has started (a first start draws its media).
  await page
    .getByRole('button', { name: /^Add avatar / })
    .first()
    .waitFor({ timeout: 2 * HANG_GUARD_MS });
  return page;
}

describe('editor: a killed host', () => {
  it('gives back every change up to the last one, autosaved a moment before the kill', async () => {
    const errors = watchErrors();
    const host = await studio.start();
    const before = await openEditorAt(host.url, errors);
    await before.getByRole('button', { name: 'Add scene' }).click();
    await before.getByRole('button', { name: 'Add scene' }).click();
    await setField(before, 'Scene name', 'Closing shot');
    // The last change; the kill comes as soon as the host has answered its autosave.
    const saved = before.waitForResponse(
      (r) =>
        r.url().includes('/bridge/call/projects.autosave') && (r.request().postData() ?? '').includes('Spring launch'),
      { timeout: HANG_GUARD_MS },
    );
    await setField(before, 'Project name', 'Spring launch');
    await saved;
    // From the kill until the page is closed, it may log what losing its host causes (its event stream
    // cut, heartbeats refused), as often as the timing makes it; nothing else.
    const outage = errors.outage(host.url);
    await studio.stop('SIGKILL');
    // The open page notices at its next heartbeat (every 5 s): the status dot turns red and says so.
    await before.getByText('Host not reachable').waitFor({ timeout: HANG_GUARD_MS });
    expect(await before.locator('.status .dot').getAttribute('class')).toContain('dot-bad');
    await screenshot(before, 'shell-host-down');
    await before.context().close();
    outage.end();

    const after = await openEditorAt((await studio.start()).url, errors);
    const banner = after.getByRole('alert', { name: 'Recovered work' });
    await banner.waitFor({ timeout: HANG_GUARD_MS });
    await screenshot(after, 'editor-killed-host-recovery');
    await banner.getByRole('button', { name: 'Restore Spring launch' }).click();
    await expect.poll(() => after.getByRole('textbox', { name: 'Project name' }).inputValue()).toBe('Spring launch');
    await expect.poll(() => after.getByText(/of 3$/).count()).toBeGreaterThan(0);
    expect(await after.getByRole('region', { name: 'Timeline' }).getByText('Closing shot').count()).toBe(1);
    await screenshot(after, 'editor-killed-host-restored');
    expect(errors.unexpected()).toEqual([]);
  }, 300_000);
});
