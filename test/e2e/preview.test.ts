// The editor's local preview end to end: ffmpeg renders the scene on the host, the page reads the file
// back and plays it. Text added on the canvas (a title and a lower third) shows in the same place and
// size on the canvas, in the preview and in the host's own picture of it (the one rasteriser). The frame must keep the output's aspect and the length must match the scene; a
// talking avatar's text is spoken by a draft voice, so labelled, and its preview lasts as long as it.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createProject, presetStyle, type TextStyle } from '@common/composition';
import { openStudio, screenshot, studioDataDir, type StudioSession } from './browser';
import { answerCreateDialog, newProject, setField } from './editor-helpers';
import { bridgeCall, paidAction } from './price';
import { burnFromLibrary, checkPreviewCaption, checkSidecars, downloadResult, editAndUndoFirstCue, makeCaptions } from './text-captions';
import { colourBox, decode, edgeGap, toOutput, type Box } from './text-frames';
import { nodeRasteriser } from '../unit/text/text-node';

const TITLE_RED = '#e63946';
/** The scene's voiceover script and the phrases its captions are cut into. */
const SCRIPT = 'Welcome to the studio. Captions follow the voice.';
const PHRASES = ['Welcome to the studio.', 'Captions follow the voice.'];
/** The lower third's box colour (#1d3557) at 85% over the white frame. */
const BOX_ON_WHITE: [number, number, number] = [63, 83, 112];
/**
 * How far a text's edges may lie from where the host's own picture puts them, in output pixels. The
 * canvas draws the frame at about a third here: two of its pixels; the sandbox's result is full size, the same allowance. The preview is 640 pixels wide (a
 * third) and H.264 keeps colour at half that resolution, so a thin red stroke at a letter's edge fades
 * out of the colour match by up to three preview pixels.
 */
const CANVAS_TOLERANCE = 6;
const PREVIEW_TOLERANCE = 9;

async function selectedBox(page: Page): Promise<{ x: number; y: number; w: number; h: number }> {
  const [x, y, w, h] = await Promise.all(['X', 'Y', 'Width', 'Height'].map(async (name) => Number(await page.getByRole('textbox', { name, exact: true }).inputValue())));
  return { x, y, w, h };
}

/** The host's pictures of the title and lower third on a white 1920×1080 frame, decoded: what the result must show. */
async function expectedFrame(items: { style: TextStyle; box: { x: number; y: number; w: number; h: number } }[]): Promise<string> {
  const dir = join(studioDataDir(), 'text-check');
  spawnSync('mkdir', ['-p', dir]);
  const rasteriser = nodeRasteriser();
  const inputs: string[] = [];
  const chain: string[] = [];
  for (const [i, { style, box }] of items.entries()) {
    const drawn = await rasteriser.rasterise(style, { width: Math.round(box.w), height: Math.round(box.h) });
    const file = join(dir, `text-${i}.png`);
    writeFileSync(file, drawn.png);
    inputs.push('-i', file);
    chain.push(`[${i === 0 ? '0' : `v${i}`}][${i + 1}]overlay=${box.x}:${box.y}[v${i + 1}]`);
  }
  const out = join(dir, 'expected.png');
  const run = spawnSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=white:s=1920x1080', ...inputs, '-filter_complex', chain.join(';'), '-map', `[v${items.length}]`, '-frames:v', '1', out]);
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return out;
}

function newestPreview(): string {
  const dir = join(studioDataDir(), 'media', 'previews');
  const files = readdirSync(dir).filter((f) => f.endsWith('.mp4')).map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

function hex(colour: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
}

/** The preview video's frame size and length once the page has its metadata. */
async function playedMedia(page: Page): Promise<{ width: number; height: number; duration: number }> {
  const video = page.getByLabel('Preview video');
  await video.waitFor({ timeout: 90_000 });
  return video.evaluate(
    (el: HTMLVideoElement) =>
      new Promise<{ width: number; height: number; duration: number }>((resolve, reject) => {
        const read = () => resolve({ width: el.videoWidth, height: el.videoHeight, duration: el.duration });
        if (el.readyState >= 1) read();
        else {
          el.addEventListener('loadedmetadata', read, { once: true });
          el.addEventListener('error', () => reject(new Error('the preview does not play')), { once: true });
        }
      }),
  );
}

describe('local preview in Chromium', () => {
  let studio: StudioSession;

  beforeAll(async () => {
    studio = await openStudio({ hash: '#/editor' });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('renders the current project with ffmpeg and plays it in the editor', async () => {
    const { page } = studio;
    const assets = page.getByRole('region', { name: 'Assets' });
    const avatar = assets.getByRole('button', { name: /^Add avatar / }).first();
    await avatar.waitFor({ timeout: 90_000 });
    await avatar.click();

    // A title (moved to the top, in red) and a lower third, through the toolbar and the inspector.
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.getByText('Title', { exact: true }).click();
    await page.getByLabel('Text colour').evaluate((input: HTMLInputElement, colour) => {
      input.value = colour;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, TITLE_RED);
    await setField(page, 'Y', '60');
    await expect.poll(async () => (await selectedBox(page)).y).toBe(60);
    const titleBox = await selectedBox(page);
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.getByText('Lower third', { exact: true }).click();
    await expect.poll(async () => (await page.getByRole('textbox', { name: 'Text content' }).inputValue())).toContain('Head of Product');
    const lowerBox = await selectedBox(page);
    await screenshot(page, 'editor-text-inspector');
    const frame1080 = createProject({ id: 'x', kind: 'avatar-video', output: '16:9-1080p' });
    const expectedPath = await expectedFrame([
      { style: { ...presetStyle(frame1080, 'title'), colour: TITLE_RED }, box: titleBox },
      { style: presetStyle(frame1080, 'lower-third'), box: lowerBox },
    ]);
    const expected = decode(expectedPath);
    const within = (b: { x: number; y: number; w: number; h: number }, k = 1, o = { x: 0, y: 0 }): Box => ({ left: Math.floor(o.x + (b.x - 20) * k), top: Math.floor(o.y + (b.y - 20) * k), right: Math.ceil(o.x + (b.x + b.w + 20) * k), bottom: Math.ceil(o.y + (b.y + b.h + 20) * k) });
    const wantTitle = colourBox(expected, hex(TITLE_RED), 60, within(titleBox))!;
    const wantLower = colourBox(expected, BOX_ON_WHITE, 30, within(lowerBox))!;
    expect(wantTitle).not.toBeNull();
    expect(wantLower).not.toBeNull();

    // The canvas shows the page's picture of each text where the host's picture puts it.
    await page.keyboard.press('Escape');
    const panel = page.getByTestId('editor-canvas');
    await expect.poll(async () => {
      const shot = join(studioDataDir(), 'text-check', 'canvas.png');
      await panel.locator('canvas').first().screenshot({ path: shot });
      const [scale, ox, oy] = await Promise.all(['data-scale', 'data-origin-x', 'data-origin-y'].map(async (a) => Number(await panel.getAttribute(a))));
      const canvas = decode(shot);
      const title = colourBox(canvas, hex(TITLE_RED), 60, within(titleBox, scale, { x: ox, y: oy }));
      const lower = colourBox(canvas, BOX_ON_WHITE, 30, within(lowerBox, scale, { x: ox, y: oy }));
      if (!title || !lower) return Infinity;
      return Math.max(edgeGap(toOutput(title, scale, { x: ox, y: oy }), wantTitle), edgeGap(toOutput(lower, scale, { x: ox, y: oy }), wantLower));
    }).toBeLessThanOrEqual(CANVAS_TOLERANCE);
    await screenshot(page, 'editor-text-canvas');

    // A voiceover generated from a script, and captions timed on it, edited and undone on the timeline.
    const assets2 = page.getByRole('region', { name: 'Assets' });
    await assets2.getByText('Voices', { exact: true }).click();
    await assets2.getByRole('button', { name: 'Use voice Ava for this scene' }).click();
    const script = page.getByRole('textbox', { name: 'Voiceover text' });
    await script.fill(SCRIPT);
    await script.blur();
    await paidAction(page, 'tts', () => page.getByRole('button', { name: 'Generate voiceover' }).click());
    await expect.poll(() => page.getByText('Voiceover ready.').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const track = await makeCaptions(page, PHRASES.length);
    expect(track.map((c) => c.text)).toEqual(PHRASES);
    await editAndUndoFirstCue(page, PHRASES[0]);
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByRole('toolbar', { name: 'Editor toolbar' }).textContent()).toContain('Saved');
    await screenshot(page, 'editor-caption-track');

    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const video = page.getByLabel('Preview video');
    const media = await playedMedia(page);
    await screenshot(page, 'editor-text-preview');
    await checkPreviewCaption(page, track[0], { width: 1920, height: 1080 });
    // A frame of the preview shows the same text in the same place and size.
    const previewed = decode(newestPreview(), 1);
    const k = previewed.width / 1920;
    const seenTitle = colourBox(previewed, hex(TITLE_RED), 60, within(titleBox, k));
    const seenLower = colourBox(previewed, BOX_ON_WHITE, 30, within(lowerBox, k));
    expect(seenTitle && edgeGap(toOutput(seenTitle, k), wantTitle)).toBeLessThanOrEqual(PREVIEW_TOLERANCE);
    expect(seenLower && edgeGap(toOutput(seenLower, k), wantLower)).toBeLessThanOrEqual(PREVIEW_TOLERANCE);
    // A new project is 16:9 with one 5 s scene; the preview is a smaller render of it.
    expect(media.width).toBeGreaterThan(0);
    expect(media.width).toBeLessThan(1920);
    expect(media.width / media.height).toBeCloseTo(16 / 9, 1);
    expect(media.duration).toBeCloseTo(5, 0);

    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await video.waitFor({ state: 'detached' });

    // Sent: each text goes as the host's picture, uploaded like a chosen file, and the sandbox's result shows it in the same place.
    await page.getByRole('button', { name: 'Create video' }).click();
    await answerCreateDialog(page, 'send');
    let resultUrl: string | null = null;
    let jobId = '';
    await expect.poll(async () => (resultUrl = (await bridgeCall<{ id: string; kind: string; resultUrl: string | null }[]>(page, 'jobs.list')).find((j) => j.kind === 'avatar-video' && j.resultUrl && (jobId = j.id))?.resultUrl ?? null), { timeout: 90_000 }).not.toBeNull();
    const sent = JSON.stringify(await bridgeCall<unknown[]>(page, 'jobs.list'));
    expect(sent).not.toContain('studio-text:');
    const resultPath = join(studioDataDir(), 'text-check', 'result.mp4');
    writeFileSync(resultPath, Buffer.from(await (await fetch(resultUrl!)).arrayBuffer()));
    const result = decode(resultPath, 1);
    const r = result.width / 1920;
    const resultTitle = colourBox(result, hex(TITLE_RED), 60, within(titleBox, r));
    const resultLower = colourBox(result, BOX_ON_WHITE, 30, within(lowerBox, r));
    expect(resultTitle && edgeGap(toOutput(resultTitle, r), wantTitle)).toBeLessThanOrEqual(CANVAS_TOLERANCE);
    expect(resultLower && edgeGap(toOutput(resultLower, r), wantLower)).toBeLessThanOrEqual(CANVAS_TOLERANCE);

    // Downloaded, the result has its captions beside it as .srt and .vtt, each cue where its phrase is heard.
    const saved = await downloadResult(page, jobId);
    const written = checkSidecars(saved, PHRASES);
    await burnFromLibrary(page, saved, written[0], { width: 1920, height: 1080 });
    expect(studio.consoleErrors).toEqual([]);
  });

  // Fails when the text stays silent or the preview keeps the scene's 5.0 s (mutations: no draft voice
  // in the media toolkit; talkingLength returning the scene's length).
  it("speaks a talking avatar's script in a labelled draft voice and lasts as long as it", async () => {
    const { page } = studio;
    // The first test saved its project (its captions go beside the download), so nothing is asked.
    await newProject(page, 'Talking avatar', 'Draft voice preview');
    const assets = page.getByRole('region', { name: 'Assets' });
    await assets.getByText('Avatars', { exact: true }).click();
    await assets.getByRole('button', { name: /^Add avatar / }).first().click();
    await page.keyboard.press('Escape');
    await assets.getByText('Voices', { exact: true }).click();
    await assets.getByRole('button', { name: 'Use voice Ava for this scene' }).click();
    const script = page.getByRole('textbox', { name: 'Voiceover text' });
    await script.fill('Welcome to the studio. This talking avatar says a little more than five seconds of text, so its preview has to follow the script.');
    await script.blur();

    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const media = await playedMedia(page);
    expect(media.duration).toBeGreaterThan(6);
    const draft = page.getByRole('region', { name: 'Draft voice' });
    expect(await draft.textContent()).toMatch(/Draft voice.*not the service's voice.*Scene 1 \(.*\), voice: espeak-ng.*, en-us, female, 180 words a minute, for Ava/s);
    const facts = (await page.getByLabel('Preview facts').textContent()) ?? '';
    expect(facts).toContain('as long as its speech');
    expect(Number(/([\d.]+) s/.exec(facts)?.[1])).toBeCloseTo(media.duration, 0);
    await screenshot(page, 'editor-preview-talking-draft-voice');

    // The editor's scene takes the speech's length on request (one undo step), and the offer goes.
    const fit = page.getByRole('button', { name: /^Make the scene [\d.]+ s in the editor$/ });
    const offered = Number(/([\d.]+) s/.exec((await fit.textContent()) ?? '')?.[1]);
    expect(offered).toBeGreaterThanOrEqual(Number(media.duration.toFixed(1)));
    await fit.click();
    await fit.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByLabel('Preview video').waitFor({ state: 'detached' });
    await page.locator('.n-modal').waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Scene duration' }).inputValue()).toBe(offered.toFixed(1));
    await screenshot(page, 'editor-talking-scene-fitted-to-speech');
    expect(studio.consoleErrors).toEqual([]);
  });
});
