// Steps the editor's end-to-end tests share.
import type { Page } from 'playwright-core';
import { openStudio, type StudioSession } from './browser';

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
  await page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')} in scene`) }).waitFor();
}
