// The composition editor end to end, in Chromium against the web host and its sandbox: build a
// project entirely through the UI, save it, reopen it, and compare its request body to a golden file.
// UPDATE_GOLDEN=1 rewrites the golden files (review the diff before committing).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openRecentProject, screenshot, type StudioSession } from './browser';
import { addMediaLink, answerCreateDialog, newProject, openEditor, setField } from './editor-helpers';
import { paidAction } from './price';
import { HANG_GUARD_MS } from '../wait';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'editor');

interface Viewport {
  scale: number;
  x: number;
  y: number;
  left: number;
  top: number;
}

async function canvasViewport(page: Page): Promise<Viewport> {
  const panel = page.getByTestId('editor-canvas');
  const [scale, x, y] = await Promise.all(
    ['data-scale', 'data-origin-x', 'data-origin-y'].map((a) => panel.getAttribute(a)),
  );
  const box = await panel.locator('canvas').first().boundingBox();
  if (!box) throw new Error('canvas not visible');
  return { scale: Number(scale), x: Number(x), y: Number(y), left: box.x, top: box.y };
}

/** Screen point of an output-pixel point on the canvas. */
function toScreen(vp: Viewport, x: number, y: number): { x: number; y: number } {
  return { x: vp.left + vp.x + x * vp.scale, y: vp.top + vp.y + y * vp.scale };
}

async function numberField(page: Page, name: string): Promise<number> {
  return Number(await page.getByRole('textbox', { name, exact: true }).inputValue());
}

/** The selected element's box in output pixels, read from the inspector. */
async function selectedBox(page: Page): Promise<{ x: number; y: number; w: number; h: number }> {
  const [x, y, w, h] = await Promise.all(['X', 'Y', 'Width', 'Height'].map((n) => numberField(page, n)));
  return { x, y, w, h };
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

async function addAvatar(page: Page, name: string): Promise<void> {
  const assets = page.getByRole('region', { name: 'Assets' });
  await assets.getByText('Avatars', { exact: true }).click();
  await assets.getByRole('button', { name: `Add avatar ${name}` }).click();
}

/** The exported request body with the sandbox's random port taken out. */
async function exportedBody(page: Page, origin: string): Promise<unknown> {
  await page.getByRole('button', { name: 'Request body' }).click();
  const pre = page.getByLabel('Request body', { exact: true }).last();
  await pre.waitFor();
  const text = (await pre.textContent()) ?? '';
  await page.keyboard.press('Escape');
  return JSON.parse(text.split(origin).join('{sandbox}'));
}

function compareGolden(name: string, body: unknown): void {
  const file = join(FIXTURES, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`Golden file ${name} was missing and has been written; review it and run again.`);
  }
  expect(body).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

async function saveAndReopen(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+s');
  await expect.poll(() => page.getByRole('toolbar', { name: 'Editor toolbar' }).textContent()).toContain('Saved');
  // A fresh page: nothing survives but what the projects service stored.
  await page.reload();
  await openRecentProject(page, new RegExp(`^${name} ·`));
  await expect.poll(() => page.getByRole('toolbar', { name: 'Editor toolbar' }).textContent()).toContain(name);
}

async function clip(page: Page, label: string): Promise<Locator> {
  const button = page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: label });
  await button.waitFor();
  return button;
}

describe('composition editor in Chromium', () => {
  let studio: StudioSession;
  let origin = '';

  beforeAll(async () => {
    ({ studio, origin } = await openEditor());
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('builds a two-scene avatar video through the UI, saves, reopens, and exports the golden body', async () => {
    const { page } = studio;
    await newProject(page, 'Avatar video', 'E2E two scenes');

    // Scene 1: an avatar, then an image above it.
    await addAvatar(page, 'Anna (sandbox cartoon)');
    await clip(page, 'Anna (sandbox cartoon) in scene 1');
    await addMediaLink(page, `${origin}/sandbox/sandbox-backdrop.png`);
    await clip(page, 'sandbox-backdrop.png in scene 1');

    // Drag the image so its top-left corner lands on the frame's centre: snapping makes the result
    // exact whatever the window's layout and zoom (the golden file must not depend on them).
    let vp = await canvasViewport(page);
    const before = await selectedBox(page);
    const centre = toScreen(vp, before.x + before.w / 2, before.y + before.h / 2);
    const delta = { x: (960 - before.x) * vp.scale, y: (540 - before.y) * vp.scale };
    await drag(page, centre, { x: centre.x + delta.x, y: centre.y + delta.y });
    // The inspector shows a gesture's outcome once the page has applied it: polled, not read at once.
    await expect
      .poll(async () => {
        const box = await selectedBox(page);
        return [box.x, box.y];
      })
      .toEqual([960, 540]);
    const moved = await selectedBox(page);

    // Resize from the bottom-right handle: smaller, same corner, same aspect.
    vp = await canvasViewport(page);
    const corner = toScreen(vp, moved.x + moved.w, moved.y + moved.h);
    await drag(page, corner, { x: corner.x - 40, y: corner.y - 40 * (moved.h / moved.w) });
    await expect.poll(async () => (await selectedBox(page)).w).toBeLessThan(moved.w - 50);
    const resized = await selectedBox(page);
    expect([resized.x, resized.y]).toEqual([960, 540]);
    expect(resized.w / resized.h).toBeCloseTo(moved.w / moved.h, 1);

    // Undo and redo the resize: one history step per gesture.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await selectedBox(page)).w).toBeCloseTo(moved.w, 0);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await selectedBox(page)).w).toBeCloseTo(resized.w, 0);

    // The exact size from the inspector (the dragged size depends on the screen's pixel grid).
    await setField(page, 'Width', '768');
    await setField(page, 'Height', '432');

    // Keyboard nudge: 10 px right with Shift, 1 px up.
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => numberField(page, 'X')).toBe(970);
    await expect.poll(() => numberField(page, 'Y')).toBe(539);

    // Layer order: put the avatar on top of the image.
    await (await clip(page, 'Anna (sandbox cartoon) in scene 1')).click();
    await expect.poll(() => numberField(page, 'Layer number')).toBe(1);
    await page.getByRole('button', { name: 'Bring forward' }).click();
    await expect.poll(() => numberField(page, 'Layer number')).toBe(2);

    // Scene 1's duration and voice, through the inspector.
    await page.keyboard.press('Escape');
    await setField(page, 'Scene duration', '4.5');
    await page.getByText('Audio URL', { exact: true }).click();
    await setField(page, 'Voice URL', `${origin}/sandbox/voice-sandbox_ava.mp3`);

    // Scene 2: another avatar placed by exact numbers, an image, a voice from the media list.
    await page.getByRole('button', { name: 'Add scene' }).click();
    await addAvatar(page, 'Ben (sandbox cartoon)');
    await clip(page, 'Ben (sandbox cartoon) in scene 2');
    await setField(page, 'X', '960');
    await setField(page, 'Y', '270');
    await setField(page, 'Width', '864');
    await setField(page, 'Height', '486');
    await addMediaLink(page, `${origin}/sandbox/sandbox-face.png`);
    await clip(page, 'sandbox-face.png in scene 2');
    await setField(page, 'X', '120');
    await addMediaLink(page, `${origin}/sandbox/voice-sandbox_oliver.mp3`);

    // Scene 2 is 6 s: drag its right edge one second (48 px at the default timeline zoom).
    const edge = page.getByRole('slider', { name: 'Duration of scene 2' });
    const edgeBox = await edge.boundingBox();
    if (!edgeBox) throw new Error('scene 2 edge not visible');
    const grip = { x: edgeBox.x + edgeBox.width / 2, y: edgeBox.y + edgeBox.height / 2 };
    await drag(page, grip, { x: grip.x + 48, y: grip.y });
    await expect.poll(() => edge.getAttribute('aria-valuenow')).toBe('6000');

    await expect.poll(() => page.getByRole('region', { name: 'Problems' }).textContent()).toContain('none');
    await screenshot(page, 'editor-avatar-video');

    await saveAndReopen(page, 'E2E two scenes');
    expect(
      await page
        .getByRole('region', { name: 'Timeline' })
        .getByRole('button', { name: /^Scene \d$/ })
        .count(),
    ).toBe(2);
    compareGolden('avatar-video.body.json', await exportedBody(page, origin));

    // Playback runs the scenes in sequence: the canvas moves on to scene 2 after 4.5 s.
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByRole('button', { name: 'Scene 1', exact: true }).click();
    await timeline.getByRole('button', { name: 'Play', exact: true }).click();
    await expect
      .poll(() => timeline.getByRole('button', { name: 'Scene 2', exact: true }).getAttribute('aria-pressed'), {
        timeout: HANG_GUARD_MS,
      })
      .toBe('true');
    await timeline.getByRole('button', { name: 'Pause', exact: true }).click();
    const [m, sec] = ((await timeline.getByLabel('Playhead time').textContent()) ?? '')
      .split('/')[0]
      .trim()
      .split(':')
      .map(Number);
    expect(m * 60 + sec).toBeGreaterThanOrEqual(4.5);

    // Create the video: the job goes to the engine and shows in the Library.
    // Cancel in the Create dialog charges nothing; Send charges what the studio recorded for the job.
    await paidAction(page, 'avatar-video', () => page.getByRole('button', { name: 'Create video' }).click(), {
      cancelFirst: true,
      answer: answerCreateDialog,
    });
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await page.getByRole('main', { name: 'library workspace' }).getByText('Avatar video').first().waitFor();
    await screenshot(page, 'editor-avatar-video-library');
    await page.getByRole('button', { name: 'Editor', exact: true }).click();
    expect(studio.consoleErrors).toEqual([]);
    // About 20 s on a quiet machine: a guard of its own, over ten times that.
  }, 300_000);

  it('builds a talking avatar through the UI, saves, reopens, and exports the golden body', async () => {
    const { page } = studio;
    await newProject(page, 'Talking avatar', 'E2E talking avatar');
    await expect.poll(() => page.getByRole('button', { name: 'Add scene' }).isDisabled()).toBe(true);

    await addAvatar(page, 'Ben (sandbox cartoon)');
    await clip(page, 'Ben (sandbox cartoon) in scene 1');
    await addMediaLink(page, `${origin}/sandbox/sandbox-backdrop.png`);
    await clip(page, 'sandbox-backdrop.png in scene 1');

    // The backdrop goes underneath and fills the frame.
    await page.getByRole('button', { name: 'Send backward' }).click();
    await setField(page, 'X', '0');
    await setField(page, 'Y', '0');
    await setField(page, 'Width', '1920');
    await setField(page, 'Height', '1080');
    await (await clip(page, 'Ben (sandbox cartoon) in scene 1')).click();
    // Dragged right until its right edge snaps to the frame's right edge (x = 1920 - 1728).
    const vp = await canvasViewport(page);
    const before = await selectedBox(page);
    const centre = toScreen(vp, before.x + before.w / 2, before.y + before.h / 2);
    await drag(page, centre, { x: centre.x + (192 - before.x) * vp.scale + 1, y: centre.y });
    await expect.poll(async () => (await selectedBox(page)).x).toBe(192);

    // The voice: a catalogue voice with a script.
    await page.keyboard.press('Escape');
    const assets = page.getByRole('region', { name: 'Assets' });
    await assets.getByText('Voices', { exact: true }).click();
    await assets.getByRole('button', { name: 'Use voice Isla for this scene' }).click();
    const script = page.getByRole('textbox', { name: 'Voiceover text' });
    await script.fill('Hello from the sandbox. This is a talking avatar.');
    await script.blur();

    await expect.poll(() => page.getByRole('region', { name: 'Problems' }).textContent()).toContain('none');
    await screenshot(page, 'editor-talking-avatar');
    await saveAndReopen(page, 'E2E talking avatar');
    compareGolden('talking-avatar.body.json', await exportedBody(page, origin));
    // Created too: the talking avatar's price question, then the charge the studio recorded, against the sandbox's balance.
    await paidAction(
      page,
      'talking-avatar',
      () => page.getByRole('button', { name: /^Create (video|talking avatar)$/ }).click(),
      { answer: answerCreateDialog },
    );
    expect(studio.consoleErrors).toEqual([]);
  });
});
