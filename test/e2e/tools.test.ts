import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';

describe('Tools workspace in Chromium', () => {
  let studio: StudioSession;

  beforeAll(async () => {
    studio = await openStudio();
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('browses the sandbox model list with credits per unit, filters by type and refreshes', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Tools', exact: true }).click();
    const region = page.getByRole('region', { name: 'Tools' });
    const swap = region.locator('[data-model="sandbox-character-swap"]');
    await swap.waitFor();
    expect(await swap.getByRole('row').filter({ hasText: '720P' }).textContent()).toContain('1280×72010');
    expect(await swap.textContent()).toContain('Character swap');
    await screenshot(page, 'tools-models');

    await region.getByRole('checkbox', { name: 'Character swap (2101)' }).click();
    await expect.poll(() => swap.count()).toBe(0);
    await expect.poll(() => region.locator('[data-model]').count()).toBeGreaterThan(0);
    await region.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => region.locator('.n-button--disabled').count()).toBe(0);
    await expect.poll(() => region.locator('[data-model]').count()).toBeGreaterThan(0);
    expect(await region.getByText('could not be read').count()).toBe(0);
    expect(studio.consoleErrors).toEqual([]);
  });
});
