// Formats as variants of one project, in Chromium (issue 65's journey): a 3-scene 16:9 project with a
// photo, a clip, a title, a lower third and an avatar gets 9:16 and 1:1 from Add format. For every
// element of both new formats, the request body Create shows and a frame of the local full-resolution
// preview each give a box of the element's own proportions (within 1 %), and every text lies inside
// the safe area. Create asks one price for the three videos. A title timed to appear at 2 s is absent at
// 1.5 s and present at 2.5 s in the preview and in the sandbox's result (its scene is sent as two items
// cut at 2 s, each with its piece of the voice). Screenshots of each format are kept.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  parseProject,
  projectInFormat,
  safeAreaOf,
  textReference,
  voicePartReference,
  type Box,
  type OutputSize,
  type Project,
} from '@common/composition';
import type { AvatarVideoBody } from '@common/api/video';
import { screenshot, studioDataDir, type StudioSession } from './browser';
import { addAvatarToScene, openEditor } from './editor-helpers';
import { bridgeCall } from './price';
import type { JobView } from '@common/bridge';
import { keepFrame } from './text-frames';
import {
  ANNA_RGB,
  aspect,
  bodyBox,
  drawnTextAspect,
  formatsProject,
  foundBox,
  LOWER_BOX,
  PHOTO_RGB,
  SCENE_MS,
  serveMedia,
  TITLE_BOX,
  VIDEO_RGB,
  type MediaServer,
} from './formats-media';
import { HANG_GUARD_MS } from '../wait';
import { FFMPEG } from '../fixtures/composition/make-media';

const NAME = 'Formats journey';
const TALL: OutputSize = { width: 1080, height: 1920 };
const SQUARE: OutputSize = { width: 1080, height: 1080 };
const WIDE: OutputSize = { width: 1920, height: 1080 };
const FORMATS = [
  { output: TALL, label: '9:16 · 1080×1920', file: '9x16' },
  { output: SQUARE, label: '1:1 · 1080×1080', file: '1x1' },
];
/** Where each scene is looked at in the preview: scene 1 after its title has appeared (at 2 s), the others in their middle. */
const SCENE_AT = [2.5, 4.5, 7.5];

const hexRgb = (hex: string) =>
  [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

function savedProject(): Project {
  const dir = join(studioDataDir(), 'projects');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const parsed = parseProject(readFileSync(join(dir, file), 'utf8'));
    if (parsed.ok && parsed.project.name === NAME) return parsed.project;
  }
  throw new Error(`no saved project named ${NAME}`);
}

function newestPreview(): string {
  const dir = join(studioDataDir(), 'media', 'previews');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.mp4'))
    .map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** A screenshot of the window, kept with the others and at /tmp/formats-<name>.png to be looked at. */
async function shot(page: Page, name: string): Promise<void> {
  copyFileSync(await screenshot(page, `formats-${name}`), `/tmp/formats-${name}.png`);
}

/** The mean loudness of `seconds` of a video's sound from `from` (ffmpeg volumedetect), in dB. */
function meanVolumeDb(video: string, from: number, seconds: number): number {
  const run = spawnSync(
    FFMPEG,
    ['-hide_banner', '-ss', String(from), '-t', String(seconds), '-i', video, '-af', 'volumedetect', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  const found = /mean_volume: (-?[\d.]+|-inf) dB/.exec(run.stderr);
  return found && found[1] !== '-inf' ? Number(found[1]) : -Infinity;
}

function insideSafeArea(box: Box, output: OutputSize, slack: number): boolean {
  const safe = safeAreaOf(output);
  return (
    box.x >= safe.x - slack &&
    box.y >= safe.y - slack &&
    box.x + box.width <= safe.x + safe.width + slack &&
    box.y + box.height <= safe.y + safe.height + slack
  );
}

async function openFormat(page: Page, label: string): Promise<void> {
  await page.getByRole('tab', { name: `Format ${label}` }).click();
  await expect
    .poll(() => page.getByRole('tab', { name: `Format ${label}` }).getAttribute('aria-selected'))
    .toBe('true');
}

/** The full-resolution draft of the format on screen, rendered from the Preview dialog; its file. */
async function draftPreview(page: Page, output: OutputSize): Promise<string> {
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const draft = page.getByRole('button', { name: 'Full-resolution draft' });
  await expect.poll(() => draft.isEnabled(), { timeout: HANG_GUARD_MS * 2 }).toBe(true);
  await draft.click();
  const video = page.getByLabel('Preview video');
  await expect
    .poll(
      () =>
        video
          .evaluate((el: HTMLVideoElement) => (el.readyState >= 1 ? `${el.videoWidth}x${el.videoHeight}` : ''))
          .catch(() => ''),
      { timeout: HANG_GUARD_MS * 3 },
    )
    .toBe(`${output.width}x${output.height}`);
  const file = newestPreview();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByLabel('Preview video').count()).toBe(0);
  return file;
}

describe('one project in three formats, in Chromium', () => {
  let studio: StudioSession;
  let media: MediaServer;
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-formats-'));
    media = await serveMedia(dir);
    ({ studio } = await openEditor());
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    await new Promise((resolve) => media?.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds 9:16 and 1:1: every element keeps its proportions in the request bodies and the preview, text inside the safe area, one price for all', async () => {
    const { page } = studio;
    // The 16:9 project, imported as a file (File › Import JSON…), and an avatar added to scene 3 in the page.
    const file = join(dir, 'formats.json');
    writeFileSync(file, JSON.stringify(await formatsProject(NAME, media)));
    await page.getByRole('button', { name: 'File menu' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByText('Import JSON…').click();
    await (await chooser).setFiles(file);
    await page.waitForFunction(
      (name) => document.querySelector('[aria-label="Editor toolbar"]')?.textContent?.includes(name) ?? false,
      NAME,
    );
    await page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: 'Scene 3', exact: true }).click();
    await addAvatarToScene(page, 'Anna (sandbox cartoon)');
    await page.keyboard.press('Escape');
    // The title timed to appear at 2 s, typed in its inspector; the studio says the video shows it then.
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByRole('button', { name: 'Scene 1', exact: true }).click();
    await timeline.getByRole('button', { name: 'Title in scene 1' }).click();
    const appears = page.getByRole('textbox', { name: 'Appears at', exact: true });
    await appears.fill('2');
    await appears.press('Enter');
    await appears.blur();
    await page.getByTestId('timing-note').waitFor();
    expect(await page.getByTestId('timing-note').textContent()).toContain('the scene is sent to the service in parts');
    expect(await page.getByRole('region', { name: 'Problems' }).textContent()).not.toContain('timing');
    await shot(page, 'timing');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+s');
    await expect.poll(() => savedProject().scenes[2].elements.length).toBe(1);
    expect(savedProject().scenes[0].elements.find((e) => e.id === 'el-2')!.startMs).toBe(2000);
    const wide = savedProject();
    await page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: 'Scene 1', exact: true }).click();
    await shot(page, '16x9');

    // Add format: 9:16, then 1:1; each opens on the canvas, and the tabs list all three.
    for (const f of FORMATS) {
      await page.getByRole('combobox', { name: 'Add format' }).selectOption({ label: f.label });
      await expect
        .poll(() => page.getByRole('tab', { name: `Format ${f.label}` }).getAttribute('aria-selected'))
        .toBe('true');
    }
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['16:9', '1:1', '9:16']);
    await page.keyboard.press('Control+s');
    await expect.poll(() => savedProject().formats?.length).toBe(2);
    const saved = savedProject();
    // Content is one copy: every format has the same scenes and elements as the 16:9 original.
    for (const f of [WIDE, ...FORMATS.map((x) => x.output)]) {
      const inFormat = projectInFormat(saved, f);
      expect(inFormat.scenes.map((s) => s.elements.map((e) => `${e.id}:${e.url}`))).toEqual(
        wide.scenes.map((s) => s.elements.map((e) => `${e.id}:${e.url}`)),
      );
    }

    // Create: one dialog, one price for three videos, and each format's own request body.
    await page.getByRole('button', { name: 'Create video' }).click();
    const modal = page.locator('.submit-modal');
    await modal.getByTestId('price-summary').waitFor({ timeout: HANG_GUARD_MS });
    await expect.poll(() => modal.getByTestId('submit-formats').textContent()).toContain('3 formats, one video each');
    const send = modal.getByRole('button', { name: 'Send to the service' });
    await expect.poll(() => send.textContent()).toMatch(/^Create 3 videos for [\d,]+ credits$/);
    const total = Number((/for ([\d,]+) credits/.exec((await send.textContent()) ?? '')![1] ?? '').replace(/,/g, ''));
    // The format on screen's body is shown, the others' folded under it: each is read by the size it names.
    const bodies = new Map<string, AvatarVideoBody>();
    for (const text of await modal.locator('pre[aria-label^="Request body"]').allTextContents()) {
      const body = JSON.parse(text) as AvatarVideoBody;
      bodies.set(`${body.data[0].width}x${body.data[0].height}`, body);
    }
    expect([...bodies.keys()].sort()).toEqual(['1080x1080', '1080x1920', '1920x1080']);
    await shot(page, 'create');
    // The one price is the three bodies' own prices together.
    const quote = await bridgeCall<{ items: { price: { credits: number } }[] }>(
      page,
      'jobs.quote',
      [...bodies.values()].map((body) => ({ action: 'avatar-video', body })),
    );
    expect(quote.items.map((i) => i.price.credits).reduce((a, b) => a + b, 0)).toBe(total);
    await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
    await modal.waitFor({ state: 'detached' });

    const original = new Map(wide.scenes.flatMap((s) => s.elements.map((e) => [e.id, e] as const)));
    for (const f of FORMATS) {
      const body = bodies.get(`${f.output.width}x${f.output.height}`)!;
      const format = projectInFormat(saved, f.output);
      const byId = new Map(format.scenes.flatMap((s) => s.elements.map((e) => [e.id, e] as const)));
      // Scene 1 is two items cut where the title appears (2 s): the photo alone, then the photo and the title.
      expect(body.data.map((d) => [d.width, d.height, d.duration])).toEqual(
        [2000, SCENE_MS - 2000, SCENE_MS, SCENE_MS].map((ms) => [f.output.width, f.output.height, ms]),
      );
      expect(body.data.slice(0, 2).map((d) => d.elements.map((e) => e.id))).toEqual([['el-1'], ['el-1', 'el-2']]);
      expect(body.data.slice(0, 2).map((d) => d.voice?.voice_url)).toEqual([
        voicePartReference('scene-1', 0, 2000),
        voicePartReference('scene-1', 2000, SCENE_MS),
      ]);
      // The body: each element's box, read back the way the service reads it.
      const boxes = new Map<string, Box>();
      for (const item of body.data)
        for (const e of item.elements) {
          const box = bodyBox(e, f.output);
          boxes.set(e.id!, box);
          const now = byId.get(e.id!)!;
          const was = original.get(e.id!)!;
          const want = now.type === 'text' ? aspect(now.mediaSize!) : aspect(was);
          expect(Math.abs(aspect(box) / want - 1), `${f.file} body: ${was.name} keeps its proportions`).toBeLessThan(
            0.01,
          );
          if (now.type === 'text') {
            expect(e.url).toBe(textReference(now.id));
            expect(insideSafeArea(box, f.output, 0.5), `${f.file} body: ${was.name} inside the safe area`).toBe(true);
          }
        }
      expect([...boxes.keys()].sort()).toEqual([...original.keys()].sort());

      // The local preview of the same format: each element found by its colour, in the body's place.
      await openFormat(page, f.label);
      await page
        .getByRole('region', { name: 'Timeline' })
        .getByRole('button', { name: 'Scene 1', exact: true })
        .click();
      await shot(page, f.file);
      const video = await draftPreview(page, f.output);
      const frames = SCENE_AT.map((t, i) => keepFrame(video, t, join(dir, `${f.file}-scene-${i + 1}.png`)));
      frames.forEach((_, i) =>
        copyFileSync(join(dir, `${f.file}-scene-${i + 1}.png`), `/tmp/formats-${f.file}-preview-scene-${i + 1}.png`),
      );
      // The title is timed from 2 s: not there at 1.5 s (the photo already is), there at 2.5 s.
      const early = keepFrame(video, 1.5, `/tmp/formats-${f.file}-preview-1.5s.png`);
      expect(
        foundBox(early, hexRgb(TITLE_BOX), boxes.get('el-2')!, f.output),
        `${f.file} preview: no title at 1.5 s`,
      ).toBeNull();
      expect(
        foundBox(early, PHOTO_RGB, boxes.get('el-1')!, f.output),
        `${f.file} preview: the photo at 1.5 s`,
      ).not.toBeNull();
      const shots: [string, number, [number, number, number], string][] = [
        ['el-1', 0, PHOTO_RGB, 'photo'],
        ['el-2', 0, hexRgb(TITLE_BOX), 'title'],
        ['el-3', 1, VIDEO_RGB, 'clip'],
        ['el-4', 1, hexRgb(LOWER_BOX), 'lower third'],
        [wide.scenes[2].elements[0].id, 2, ANNA_RGB, 'avatar'],
      ];
      for (const [id, scene, colour, what] of shots) {
        const now = byId.get(id)!;
        const found = foundBox(frames[scene], colour, boxes.get(id)!, f.output, what === 'avatar' ? 30 : 40);
        expect(found, `${f.file} preview shows the ${what}`).not.toBeNull();
        const want =
          now.type === 'text'
            ? await drawnTextAspect(now.text!, now.mediaSize!, join(dir, `${id}-${f.file}.png`))
            : aspect(original.get(id)!);
        expect(
          Math.abs(aspect(found!) / want - 1),
          `${f.file} preview: the ${what} keeps its proportions`,
        ).toBeLessThan(0.01);
        const edge = Math.max(
          Math.abs(found!.x - boxes.get(id)!.x),
          Math.abs(found!.y - boxes.get(id)!.y),
          Math.abs(found!.x + found!.width - boxes.get(id)!.x - boxes.get(id)!.width),
        );
        expect(edge, `${f.file} preview: the ${what} where the body puts it`).toBeLessThanOrEqual(4);
        if (now.type === 'text')
          expect(insideSafeArea(found!, f.output, 1), `${f.file} preview: the ${what} inside the safe area`).toBe(true);
      }
    }

    // Create sends every format on that one answer: three jobs, each from its own format's body.
    await page.getByRole('button', { name: 'Create video' }).click();
    const again = page.locator('.submit-modal');
    const sendAll = again.getByRole('button', { name: 'Send to the service' });
    await expect.poll(() => sendAll.isEnabled(), { timeout: HANG_GUARD_MS }).toBe(true);
    await expect.poll(() => sendAll.textContent()).toBe(`Create 3 videos for ${total} credits`);
    await sendAll.click();
    // A refusal stays in the dialog: say what it said rather than only that it stayed open.
    await again.waitFor({ state: 'detached', timeout: HANG_GUARD_MS }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nThe dialog said: ${await again.textContent().catch(() => '')}`);
    });
    const jobsOf = async () =>
      (await bridgeCall<JobView[]>(page, 'jobs.list')).filter(
        (j) => j.kind === 'avatar-video' && j.projectId === saved.id,
      );
    await expect.poll(async () => (await jobsOf()).length, { timeout: HANG_GUARD_MS }).toBe(3);
    const sizeOf = (j: JobView) => {
      const item = (j.request as { data: { width: number; height: number }[] }).data[0];
      return `${item.width}x${item.height}`;
    };
    expect((await jobsOf()).map(sizeOf).sort()).toEqual(['1080x1080', '1080x1920', '1920x1080']);
    await expect
      .poll(async () => (await jobsOf()).map((j) => j.phase).join(','), { timeout: HANG_GUARD_MS * 3 })
      .toBe('completed,completed,completed');
    // The sandbox's 9:16 result keeps the photo's proportions, and shows the title from 2 s as the preview
    // does: absent at 1.5 s (the first item), present at 2.5 s (the second).
    const tall = (await jobsOf()).find((j) => sizeOf(j) === '1080x1920')!;
    const sent = tall.request as AvatarVideoBody;
    expect(sent.data.map((d) => d.duration)).toEqual([2000, SCENE_MS - 2000, SCENE_MS, SCENE_MS]);
    // Each part's voice went out as an uploaded cut of the scene's voice (filled in at submit).
    for (const d of sent.data.slice(0, 2)) expect(d.voice?.voice_url).toMatch(/^https?:\/\/.*\.mp3$/);
    // Fetched here: the sandbox's link, as the Library's download would fetch it.
    const result = join(dir, 'result-9x16.mp4');
    writeFileSync(result, Buffer.from(await (await fetch(tall.resultUrl!)).arrayBuffer()));
    const tallBody = bodies.get('1080x1920')!;
    const photoBox = bodyBox(
      tallBody.data[0].elements.find((e) => e.id === 'el-1')!,
      TALL,
    );
    const titleBox = bodyBox(
      tallBody.data[1].elements.find((e) => e.id === 'el-2')!,
      TALL,
    );
    const before = keepFrame(result, 1.5, '/tmp/formats-9x16-result-1.5s.png');
    const after = keepFrame(result, 2.5, '/tmp/formats-9x16-result-2.5s.png');
    const photo = foundBox(before, PHOTO_RGB, photoBox, TALL);
    expect(photo, 'the result shows the photo').not.toBeNull();
    expect(Math.abs(aspect(photo!) / (1200 / 900) - 1)).toBeLessThan(0.01);
    expect(foundBox(before, hexRgb(TITLE_BOX), titleBox, TALL), 'the result: no title at 1.5 s').toBeNull();
    expect(foundBox(after, hexRgb(TITLE_BOX), titleBox, TALL), 'the result shows the title at 2.5 s').not.toBeNull();
    expect(foundBox(after, PHOTO_RGB, photoBox, TALL), 'the result still shows the photo at 2.5 s').not.toBeNull();
    // The voice carries on across the cut: its tone (2.8 s) is heard both before and after 2 s.
    expect(meanVolumeDb(result, 1.2, 0.6), 'the voice before the cut').toBeGreaterThan(-40);
    expect(meanVolumeDb(result, 2.1, 0.6), 'the voice after the cut').toBeGreaterThan(-40);
    await shot(page, 'sent');
    expect(studio.consoleErrors).toEqual([]);
  }, 900_000);
});
