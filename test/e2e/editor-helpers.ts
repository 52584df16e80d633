// Steps the editor's end-to-end tests share.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { openStudio, type StudioSession } from './browser';
import type { Answer } from './price';
import { HANG_GUARD_MS } from '../wait';

/** Types a value into an inspector field and commits it (Enter, then focus leaves). */
export async function setField(page: Page, name: string, value: string): Promise<void> {
  const field = page.getByRole('textbox', { name, exact: true });
  await field.fill(value);
  await field.press('Enter');
  await field.blur();
}

/** Adds a link to the media list and from there to the current scene. */
export async function addMediaLink(page: Page, url: string): Promise<void> {
  const assets = page.getByRole('region', { name: 'Assets' });
  await assets.getByText('Media', { exact: true }).click();
  await assets.getByRole('textbox', { name: 'Media link' }).fill(url);
  await assets.getByRole('button', { name: 'Add media link' }).click();
  const name = decodeURIComponent(url.split('/').pop() ?? url);
  await assets.getByRole('button', { name: `Add ${name} to scene` }).click();
}

/** The studio on the Editor once the sandbox's avatars are listed, and the sandbox's origin. */
export async function openEditor(): Promise<{ studio: StudioSession; origin: string }> {
  const studio = await openStudio({ hash: '#/editor' });
  const first = studio.page.getByRole('button', { name: /^Add avatar / }).first();
  await first.waitFor({ timeout: 90_000 });
  const thumb = await first.locator('img').getAttribute('src');
  return { studio, origin: new URL(thumb ?? '').origin };
}

/** Adds a catalogue avatar to the current scene and waits until it is in the scene. */
export async function addAvatarToScene(page: Page, name: string): Promise<void> {
  const assets = page.getByRole('region', { name: 'Assets' });
  await assets.getByText('Avatars', { exact: true }).click();
  await assets.getByRole('button', { name: `Add avatar ${name}` }).click();
  await page
    .getByRole('region', { name: 'Timeline' })
    .getByRole('button', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')} in scene`) })
    .waitFor();
}

/**
 * Waits for the "Job created" notice after "Send to the service". When the Create dialog says why it
 * did not send instead, or the wait runs out, the error carries the dialog's own words, so a failure
 * on a loaded machine says what the studio showed rather than only "timeout".
 */
export async function waitForJobCreated(page: Page, timeout = 60_000): Promise<void> {
  const created = page.getByText(/Job created/).last();
  const refused = page
    .getByRole('alert')
    .filter({ hasText: /Not sent|could not be checked|broken link/ })
    .first();
  const outcome = await Promise.race([
    created.waitFor({ timeout }).then(() => 'created' as const),
    refused.waitFor({ timeout }).then(() => 'refused' as const),
  ]).catch(() => 'timeout' as const);
  if (outcome === 'created') return;
  const dialog = await page
    .locator('.submit-modal')
    .innerText({ timeout: 2_000 })
    .catch(() => '(no Create dialog open)');
  throw new Error(`no "Job created" notice (${outcome}); the Create dialog showed:\n${dialog.slice(0, 2_000)}`);
}

/**
 * The editor asks before replacing unsaved work, or goes straight on: waits for whichever comes, the
 * question or `next` (what the step shows once nothing is asked), and answers the question Don't save
 * (these tests start over and keep nothing). Waiting a fixed moment for the question instead missed it
 * when it came late on a busy machine.
 */
export async function discardIfAsked(page: Page, next: Locator): Promise<void> {
  const dontSave = page.getByRole('button', { name: "Don't save" });
  await dontSave.or(next).first().waitFor({ timeout: HANG_GUARD_MS });
  if (await dontSave.isVisible()) await dontSave.click();
}

/**
 * File → New project… of one kind, named; waits until the editor shows it. `discard`: answer the save
 * prompt with Don't save (a test that starts over keeps nothing of the project before).
 */
export async function newProject(
  page: Page,
  kind: 'Avatar video' | 'Talking avatar',
  name: string,
  options: { discard?: boolean } = {},
): Promise<void> {
  await page.getByRole('button', { name: 'File menu' }).click();
  await page.getByText('New project…').click();
  if (options.discard) await page.getByRole('button', { name: "Don't save" }).click();
  await page.getByRole('radio', { name: new RegExp(kind) }).click();
  await page.getByRole('textbox', { name: 'New project name' }).fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForFunction(
    (wanted) => document.querySelector('[aria-label="Editor toolbar"]')?.textContent?.includes(wanted) ?? false,
    name,
  );
}

/** Drops files from "the desktop" onto the canvas at a screen point, as a file manager would. */
export async function dropFiles(
  page: Page,
  files: { path: string; type: string }[],
  at: { x: number; y: number },
): Promise<void> {
  const payload = files.map((f) => ({
    name: f.path.split('/').pop()!,
    type: f.type,
    base64: readFileSync(f.path).toString('base64'),
  }));
  const transfer = await page.evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const item of items)
      dt.items.add(
        new File([Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0))], item.name, { type: item.type }),
      );
    return dt;
  }, payload);
  await page.dispatchEvent('section.center', 'drop', { dataTransfer: transfer, clientX: at.x, clientY: at.y });
}

/** Answers the editor's Create dialog, which is the price question of a video: Cancel closes it, Send waits for the job. */
export const answerCreateDialog: Answer = async (page, answer) => {
  const modal = page.locator('.submit-modal');
  await modal.getByTestId('price-summary').waitFor({ timeout: HANG_GUARD_MS });
  const said = (await modal.textContent()) ?? '';
  if (answer === 'cancel') {
    await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
    await modal.waitFor({ state: 'detached' });
  } else {
    await page.getByRole('button', { name: 'Send to the service' }).click();
    await waitForJobCreated(page);
  }
  return said;
};
