// Another format for a finished 16:9 project: the product explainer starter, switched to 9:16 and to
// 1:1 from the inspector's output size, keeps every element's proportions (read from the saved file)
// and its text inside the safe area; the screenshots show each format.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseProject, safeAreaOf, type Project } from '@common/composition';
import { openStudio, screenshot, studioDataDir, type StudioSession } from './browser';
import { colourBox, decode } from './text-frames';

const NAME = 'Reframed explainer';

function savedProject(): Project {
  const dir = join(studioDataDir(), 'projects');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const parsed = parseProject(readFileSync(join(dir, file), 'utf8'));
    if (parsed.ok && parsed.project.name === NAME) return parsed.project;
  }
  throw new Error(`no saved project named ${NAME}`);
}

async function chooseOutput(page: Page, label: string, size: string): Promise<void> {
  await page
    .locator('label.field')
    .filter({ hasText: /^Output/ })
    .locator('.n-base-selection')
    .click();
  await page.locator('.n-base-select-option:visible').filter({ hasText: label }).click();
  await page.getByText(`Avatar video · ${size}`).waitFor();
  await page.keyboard.press('Control+s');
}

/** Whether the canvas shows the title's white letters where the saved project puts the title: it has been drawn. */
async function titleDrawn(page: Page): Promise<boolean> {
  const title = savedProject().scenes[0].elements.find((e) => e.role === 'title')!;
  const panel = page.getByTestId('editor-canvas');
  const dir = join(studioDataDir(), 'journey-check');
  mkdirSync(dir, { recursive: true });
  const shot = join(dir, 'reframe-canvas.png');
  await panel.locator('canvas').first().screenshot({ path: shot });
  const [scale, ox, oy] = await Promise.all(
    ['data-scale', 'data-origin-x', 'data-origin-y'].map(async (a) => Number(await panel.getAttribute(a))),
  );
  const at = (v: number, o: number) => Math.round(o + v * scale);
  const area = {
    left: at(title.x, ox),
    top: at(title.y, oy),
    right: at(title.x + title.width, ox),
    bottom: at(title.y + title.height, oy),
  };
  return colourBox(decode(shot), [255, 255, 255], 40, area) !== null;
}

/** Every element's drawn shape against the 16:9 original's; text by its picture's even scale. */
function checkProportions(original: Project, reframed: Project): void {
  const safe = safeAreaOf(reframed.output);
  original.scenes.forEach((scene, s) =>
    scene.elements.forEach((was) => {
      const now = reframed.scenes[s].elements.find((e) => e.id === was.id)!;
      const drift =
        now.type === 'text'
          ? now.width / now.mediaSize!.width / (now.height / now.mediaSize!.height)
          : now.width / now.height / (was.width / was.height);
      expect(Math.abs(drift - 1), `${now.name} keeps its proportions`).toBeLessThan(0.01);
      if (now.type !== 'text') return;
      expect(now.x, `${now.name} in the safe area`).toBeGreaterThanOrEqual(safe.x - 0.01);
      expect(now.y + now.height, `${now.name} in the safe area`).toBeLessThanOrEqual(safe.y + safe.height + 0.01);
    }),
  );
}

describe('a 16:9 starter reframed to 9:16 and 1:1 in Chromium', () => {
  let studio: StudioSession;

  beforeAll(async () => {
    studio = await openStudio({ hash: '#/editor' });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('keeps every element in proportion in each format, and shows it', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByText('New project…').click();
    const template = page.getByRole('radio', { name: 'Template Product explainer' });
    await template.locator('img').waitFor();
    await template.click();
    await page.getByRole('textbox', { name: 'New project name' }).fill(NAME);
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForFunction(
      (name) => document.querySelector('[aria-label="Editor toolbar"]')?.textContent?.includes(name) ?? false,
      NAME,
    );
    const original = savedProject();
    await expect.poll(() => titleDrawn(page)).toBe(true);
    await screenshot(page, 'editor-format-16x9');

    await chooseOutput(page, '9:16', '1080×1920');
    await expect.poll(() => savedProject().output).toEqual({ width: 1080, height: 1920 });
    checkProportions(original, savedProject());
    await expect.poll(() => titleDrawn(page)).toBe(true);
    await screenshot(page, 'editor-format-9x16');

    await page.keyboard.press('Control+z');
    await page.getByText('Avatar video · 1920×1080').waitFor();
    await chooseOutput(page, '1:1', '1080×1080');
    await expect.poll(() => savedProject().output).toEqual({ width: 1080, height: 1080 });
    checkProportions(original, savedProject());
    await expect.poll(() => titleDrawn(page)).toBe(true);
    await screenshot(page, 'editor-format-1x1');
    expect(studio.consoleErrors).toEqual([]);
  });
});
