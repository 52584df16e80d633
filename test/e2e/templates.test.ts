// A creator's first branded video from a fresh data folder: the brand kit (colours, heading font, a
// logo) is set up once, then a new project starts from a starter template with the kit applied. The
// project file must carry the kit, and the editor is photographed to be looked at.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProject, type Project } from '@common/composition';
import type { Page } from 'playwright-core';
import { screenshot, studioDataDir, type StudioSession } from './browser';
import { openEditor } from './editor-helpers';
import { colourBox, decode, type Box } from './text-frames';

const LOGO = join(import.meta.dirname, '..', 'fixtures', 'brand', 'logo.png');

/** Whether the canvas shows `colour` inside `area` (output pixels): the element there has been drawn. */
async function canvasShows(page: Page, colour: [number, number, number], area: Box): Promise<boolean> {
  const panel = page.getByTestId('editor-canvas');
  const dir = join(studioDataDir(), 'canvas-check');
  mkdirSync(dir, { recursive: true });
  const shot = join(dir, 'canvas.png');
  await panel.locator('canvas').first().screenshot({ path: shot });
  const [scale, ox, oy] = await Promise.all(['data-scale', 'data-origin-x', 'data-origin-y'].map(async (a) => Number(await panel.getAttribute(a))));
  const at = (v: number, o: number) => Math.round(o + v * scale);
  return colourBox(decode(shot), colour, 40, { left: at(area.left, ox), top: at(area.top, oy), right: at(area.right, ox), bottom: at(area.bottom, oy) }) !== null;
}

function savedProject(name: string): Project {
  const dir = join(studioDataDir(), 'projects');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const parsed = parseProject(readFileSync(join(dir, file), 'utf8'));
    if (parsed.ok && parsed.project.name === name) return parsed.project;
  }
  throw new Error(`no saved project named ${name}`);
}

describe('templates and brand kit', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    ({ studio } = await openEditor());
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
  });

  it('sets up a brand kit, then starts a project from a starter template with it applied', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByText('Brand kit…').click();
    await page.getByLabel('Brand primary colour').fill('#e11d48');
    await page.getByLabel('Brand background colour').fill('#111827');
    await page.getByLabel('Choose logo picture').setInputFiles(LOGO);
    await page.getByRole('img', { name: 'Logo' }).waitFor();
    await page.getByLabel('Heading font').click();
    await page.locator('.n-base-select-option:visible').filter({ hasText: /^DejaVu Serif$/ }).click();
    await page.getByText('Apply to new projects').click();
    await screenshot(page, 'brand-kit-dialog');
    await page.getByRole('button', { name: 'Save brand kit' }).click();
    await page.getByText('Brand kit saved').waitFor();

    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByText('New project…').click();
    const template = page.getByRole('radio', { name: 'Template Product explainer' });
    await template.locator('img').waitFor();
    await template.click();
    await page.getByRole('textbox', { name: 'New project name' }).fill('Flowboard launch');
    expect(await page.getByRole('checkbox', { name: /Apply my brand kit/ }).getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'new-project-from-template');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForFunction(() => document.querySelector('[aria-label="Editor toolbar"]')?.textContent?.includes('Flowboard launch') ?? false);

    const project = savedProject('Flowboard launch');
    expect(project.background).toBe('#111827');
    expect(project.scenes).toHaveLength(3);
    for (const scene of project.scenes) expect(scene.elements.filter((e) => e.role === 'logo')).toHaveLength(1);
    const titles = project.scenes.flatMap((s) => s.elements).filter((e) => e.role === 'title');
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.every((t) => t.text?.fontFamily === 'DejaVu Serif')).toBe(true);
    // The template's avatars play from this connection's catalogue, its pictures from the data folder.
    const urls = project.scenes.flatMap((s) => s.elements.map((e) => e.url)).filter(Boolean);
    expect(urls.every((u) => u.startsWith('http://127.0.0.1') || u.startsWith('file:'))).toBe(true);

    // The canvas has drawn the first scene: the logo keeps its transparency (its red mark, no box
    // around it) in the top-right corner, and the title's white letters are on the dark frame.
    const logo = project.scenes[0].elements.find((e) => e.role === 'logo')!;
    expect(logo.x).toBeGreaterThan(1920 / 2);
    await expect.poll(() => canvasShows(page, [0xe1, 0x1d, 0x48], { left: logo.x, top: logo.y, right: logo.x + logo.height, bottom: logo.y + logo.height })).toBe(true);
    const title = project.scenes[0].elements.find((e) => e.role === 'title')!;
    await expect.poll(() => canvasShows(page, [255, 255, 255], { left: title.x, top: title.y, right: title.x + title.width, bottom: title.y + title.height })).toBe(true);
    await screenshot(page, 'editor-branded-template');
    expect(studio.consoleErrors).toEqual([]);
  }, 180_000);

  it('makes the project a campaign template: its variables listed, a sample row shown on the canvas, the project keeping its placeholders', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: /^Plan less\..* in scene 1$/ }).click();
    const content = page.getByRole('textbox', { name: 'Text content' });
    await content.fill('Hi {{First name}}!');
    await content.blur();
    await page.keyboard.press('Escape');
    const script = page.getByRole('textbox', { name: 'Voiceover text' });
    await script.fill('Still juggling spreadsheets at {{company}}, {{First name}}?');
    await script.blur();
    const picker = page.getByRole('toolbar', { name: 'Sample row' });
    await picker.getByText('Template · 2 variables').waitFor();
    await page.getByRole('textbox', { name: 'Sample value of First name' }).fill('Ana');
    // The row lacks a company: said on the canvas and marked in the script.
    await picker.getByText('Row 1 has no value for {{company}}').waitFor();
    expect(await page.getByLabel("Script with this row's values").textContent()).toBe('Still juggling spreadsheets at {{company}}, Ana?');
    await screenshot(page, 'editor-template-row');
    // Stepping rows from the keyboard; the title in the project still says {{First name}}.
    await picker.getByRole('button', { name: 'Add a sample row' }).click();
    await picker.getByText('Row 2 of 2').waitFor();
    await picker.getByRole('button', { name: 'Previous row' }).press('ArrowLeft');
    await picker.getByText('Row 1 of 2').waitFor();
    // The title is named by its words, so the timeline now calls it by its placeholder.
    await page.getByRole('button', { name: 'Hi {{First name}}! in scene 1' }).click();
    expect(await page.getByRole('textbox', { name: 'Text content' }).inputValue()).toBe('Hi {{First name}}!');
    expect(studio.consoleErrors).toEqual([]);
  }, 120_000);
});
