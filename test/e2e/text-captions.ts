// The caption steps of the preview journey: captions made from the voice on the timeline, edited and
// undone, drawn over the preview by the one rasteriser, and written beside a downloaded result.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { drawCue } from '@common/captions/caption-pictures';
import { DEFAULT_CAPTION_SETTINGS } from '@common/captions/caption-track';
import { screenshot, SCREENSHOT_DIR, studioDataDir } from './browser';
import { keepFrame } from './text-frames';
import { bridgeCall } from './price';
import { nodeRasteriser } from '../unit/text/text-node';
import { HANG_GUARD_MS } from '../wait';

/** Largest distance between a cue's start and where its phrase is heard in the result. */
export const CUE_TOLERANCE_MS = 300;

/** Makes the captions from the scene's voice; answers each cue on the track (words and times, from its tooltip). */
export async function makeCaptions(page: Page, phrases: number): Promise<SrtCue[]> {
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('button', { name: 'Make captions' }).click();
  const cues = timeline.getByRole('button', { name: /^Caption \d+ in scene 1:/ });
  await expect.poll(() => cues.count(), { timeout: HANG_GUARD_MS }).toBe(phrases);
  return Promise.all(
    (await cues.all()).map(async (c) => {
      const [, from, to, text] = /^([\d.]+)–([\d.]+) s · (.*)$/s.exec((await c.getAttribute('title')) ?? '') ?? [];
      return { startMs: Math.round(Number(from) * 1000), endMs: Math.round(Number(to) * 1000), text };
    }),
  );
}

/** Edits the first cue's words in the cue editor, checks the track shows them, and undoes it (one step). */
export async function editAndUndoFirstCue(page: Page, original: string): Promise<void> {
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('button', { name: /^Caption 1 in scene 1:/ }).click();
  const words = page.getByRole('textbox', { name: 'Caption words' });
  await words.fill('Edited words');
  await words.press('Enter');
  await timeline.getByRole('button', { name: 'Caption 1 in scene 1: Edited words' }).waitFor();
  await screenshot(page, 'editor-caption-track-edit');
  await page.getByRole('button', { name: 'Undo' }).first().click();
  await timeline.getByRole('button', { name: `Caption 1 in scene 1: ${original}` }).waitFor();
  await page.getByRole('button', { name: 'Close caption editor' }).click();
  // The captions' look and the export option, as the user finds them.
  await timeline.getByRole('button', { name: 'Caption style' }).click();
  const fields = page.getByRole('group', { name: 'Caption style' });
  await fields.getByText('Save captions (.srt and .vtt) beside downloaded results').waitFor();
  await screenshot(page, 'editor-caption-style');
  await timeline.getByRole('button', { name: 'Caption style' }).click();
  await fields.waitFor({ state: 'hidden' });
}

/**
 * The preview plays with a caption over it: paused inside the first cue, the overlay shows the
 * picture the host's rasteriser draws for those words, at the same place and size.
 */
export async function checkPreviewCaption(
  page: Page,
  firstCue: { text: string; startMs: number; endMs: number },
  output: { width: number; height: number },
): Promise<void> {
  const video = page.getByLabel('Preview video');
  await video.evaluate(
    (el: HTMLVideoElement, at) => {
      el.pause();
      el.currentTime = at;
    },
    (firstCue.startMs + firstCue.endMs) / 2000,
  );
  const image = page.getByRole('img', { name: 'Caption' }).locator('image');
  const drawn = await drawCue(nodeRasteriser(), DEFAULT_CAPTION_SETTINGS, firstCue.text, output);
  // Polled: the overlay follows the seek a moment later, and until then may show the cue it was at.
  await expect
    .poll(() => image.evaluate((el) => ['x', 'y', 'width', 'height'].map((a) => Number(el.getAttribute(a)))), {
      timeout: HANG_GUARD_MS,
    })
    .toEqual([drawn.x, drawn.y, drawn.width, drawn.height]);
  await screenshot(page, 'editor-captions-preview');
}

/** Saves the job's result through the download queue; answers the saved file once it is there. */
export async function downloadResult(page: Page, jobId: string): Promise<string> {
  const folder = join(studioDataDir(), 'saved-results');
  await bridgeCall(page, 'downloads.start', { jobIds: [jobId], folder });
  let saved: string | null = null;
  await expect
    // This download, in this folder: the archive keeps a copy of the same result elsewhere.
    .poll(
      async () =>
        (saved =
          (
            await bridgeCall<{ jobId: string; folder: string; state: string; savedPath: string | null }[]>(
              page,
              'downloads.ofJobs',
              [jobId],
            )
          ).find((d) => d.jobId === jobId && d.folder === folder && d.state === 'saved')?.savedPath ?? null),
      { timeout: HANG_GUARD_MS },
    )
    .not.toBeNull();
  // Its subtitle files are written just after the copy is saved (the list may show it saved first).
  const stem = saved!.replace(/\.mp4$/, '');
  await expect
    .poll(() => existsSync(`${stem}.srt`) && existsSync(`${stem}.vtt`), { timeout: HANG_GUARD_MS })
    .toBe(true);
  return saved!;
}

export interface SrtCue {
  startMs: number;
  endMs: number;
  text: string;
}

export function readSrt(path: string): SrtCue[] {
  const ms = (t: string): number => {
    const [h, m, s] = t.replace(',', '.').split(':').map(Number);
    return Math.round(((h * 60 + m) * 60 + s) * 1000);
  };
  return readFileSync(path, 'utf8')
    .trim()
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n');
      const [from, to] = lines[1].split(' --> ');
      return { startMs: ms(from), endMs: ms(to), text: lines.slice(2).join('\n') };
    });
}

/**
 * Where speech resumes in a file's sound, found here on its own terms (ffmpeg's silencedetect with
 * another threshold and pause length than the studio's), as phrase starts. The music bed under the
 * voice fills the pauses; it is made of tones under 400 Hz, so the sound is taken above 1 kHz, where
 * speech is and the bed is not.
 */
export function speechOnsets(path: string): number[] {
  const run = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-i',
      path,
      '-vn',
      '-af',
      'highpass=f=1000,highpass=f=1000,silencedetect=noise=-40dB:d=0.25',
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8' },
  );
  const ends = [...run.stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Math.round(Number(m[1]) * 1000));
  const starts = [...run.stderr.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Math.round(Number(m[1]) * 1000));
  // Speech from the very start has no silence before it.
  return starts.length > 0 && starts[0] > 50 ? [0, ...ends] : ends;
}

/** The .srt and .vtt beside the saved result hold the cues, each within the tolerance of a phrase heard in it. */
export function checkSidecars(savedPath: string, phrases: string[]): SrtCue[] {
  const stem = savedPath.replace(/\.mp4$/, '');
  expect(existsSync(`${stem}.srt`), `${stem}.srt`).toBe(true);
  expect(existsSync(`${stem}.vtt`), `${stem}.vtt`).toBe(true);
  const cues = readSrt(`${stem}.srt`);
  expect(cues.map((c) => c.text)).toEqual(phrases);
  const vtt = readFileSync(`${stem}.vtt`, 'utf8');
  expect(vtt.startsWith('WEBVTT\n')).toBe(true);
  for (const phrase of phrases) expect(vtt).toContain(phrase);
  const onsets = speechOnsets(savedPath);
  expect(onsets.length).toBeGreaterThanOrEqual(phrases.length);
  for (const cue of cues) {
    const nearest = Math.min(...onsets.map((o) => Math.abs(o - cue.startMs)));
    expect(
      nearest,
      `cue "${cue.text}" at ${cue.startMs} ms; speech resumes at ${onsets.join(', ')} ms`,
    ).toBeLessThanOrEqual(CUE_TOLERANCE_MS);
  }
  return cues;
}

/** Mean brightness of a region of a video's frame at `seconds`. */
function brightness(
  path: string,
  seconds: number,
  box: { x: number; y: number; width: number; height: number },
): number {
  const raw = spawnSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      path,
      '-frames:v',
      '1',
      '-vf',
      `crop=${box.width}:${box.height}:${box.x}:${box.y}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ],
    { maxBuffer: 1 << 24 },
  ).stdout;
  return raw.reduce((sum, v) => sum + v, 0) / raw.length;
}

/**
 * The Library's burn action makes "<name> (captions).mp4" beside the copy it burns: the user's own
 * download, picked by its path where the archive keeps a copy too. Inside the first cue, the caption
 * box's edge (clear of the letters) is dark where the original shows the light frame.
 */
export async function burnFromLibrary(
  page: Page,
  saved: string,
  firstCue: SrtCue,
  output: { width: number; height: number },
): Promise<void> {
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  const cc = page.getByRole('button', { name: 'Burn captions into a copy' }).first();
  await cc.click();
  if ((await cc.getAttribute('aria-haspopup')) === 'menu') {
    await page
      .locator('.n-dropdown-option')
      .filter({ hasText: /\(archive copy\)$/ })
      .waitFor();
    await screenshot(page, 'library-captions-burn-choose-copy');
    await page.locator('.n-dropdown-option').filter({ hasText: saved }).click();
  }
  const said = page.getByText(/^Captions burned into a copy: /);
  await said.waitFor({ timeout: 90_000 });
  await screenshot(page, 'library-captions-burned');
  const burned = ((await said.textContent()) ?? '').replace(/^Captions burned into a copy: /, '');
  expect(burned).toBe(saved.replace(/\.mp4$/, ' (captions).mp4'));
  expect(existsSync(burned), burned).toBe(true);
  const drawn = await drawCue(nodeRasteriser(), DEFAULT_CAPTION_SETTINGS, firstCue.text, output);
  const strip = { x: drawn.x + 3, y: drawn.y + 6, width: 6, height: drawn.height - 12 };
  const at = (firstCue.startMs + firstCue.endMs) / 2000;
  expect(brightness(burned, at, strip)).toBeLessThan(brightness(saved, at, strip) - 60);
  // The burned copy's frame there, kept to be looked at.
  keepFrame(burned, at, join(SCREENSHOT_DIR, 'captions-burned-frame.png'));
  await page.getByRole('button', { name: 'Editor', exact: true }).click();
}
