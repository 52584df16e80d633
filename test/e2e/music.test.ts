// Music under the voice end to end in Chromium: a music file chosen in the scene inspector shows on the
// timeline, the local preview plays the scene's voice with the music mixed under it at the loudness
// target, and Create uploads that same mix as the scene's voice (no placeholder, no local path reaches
// the service), so the sandbox's result sounds at the target too.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { JobView } from '@common/bridge';
import { screenshot, studioDataDir, type StudioSession } from './browser';
import { dropFiles, newProject, openEditor, waitForJobCreated } from './editor-helpers';

const dir = mkdtempSync(join(tmpdir(), 'studio-e2e-music-'));
const TARGET_LUFS = -16;

function integratedLufs(path: string): number {
  const log = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', path, '-vn', '-af', 'ebur128', '-f', 'null', '-'], { encoding: 'utf8' }).stderr;
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(log.slice(log.lastIndexOf('Summary:')))![1]);
}

async function listJobs(page: Page): Promise<JobView[]> {
  return page.evaluate(async () => {
    const response = await fetch('/bridge/call/jobs.list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
    return ((await response.json()) as { value: JobView[] }).value;
  });
}

function newestPreview(): string {
  const previews = join(studioDataDir(), 'media', 'previews');
  return readdirSync(previews).filter((f) => f.endsWith('.mp4')).map((f) => join(previews, f)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

describe('music under the voice', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    ({ studio } = await openEditor());
  });
  afterAll(async () => {
    await studio?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is chosen in the inspector, shown on the timeline, heard in the preview and sent as the voice', async () => {
    const { page } = studio;
    // A quiet voice (phrases at about −30 LUFS): only the mix brings the scene to the target.
    const voice = join(dir, 'quiet voice.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', "aevalsrc='0.04*sin(2*PI*190*t)*lt(mod(t,2),1.2)':s=44100:d=4", voice]);
    const music = join(dir, 'bed music.mp3');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', "aevalsrc='0.3*(sin(2*PI*220*t)+sin(2*PI*330*t))':s=44100:d=3", '-ac', '2', '-c:a', 'libmp3lame', music]);
    const picture = join(dir, 'card.png');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x3050a0:s=480x270', '-frames:v', '1', picture]);

    await newProject(page, 'Avatar video', 'Music under the voice');
    const canvas = (await page.getByTestId('editor-canvas').locator('canvas').first().boundingBox())!;
    await dropFiles(page, [{ path: picture, type: 'image/png' }, { path: voice, type: 'audio/wav' }], { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 });
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByRole('button', { name: 'card.png in scene 1' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByLabel('Choose a music file').setInputFiles(music);
    await timeline.getByRole('button', { name: 'Music in scene 1: bed music.mp3' }).waitFor();
    await page.getByLabel('Ducking under speech').waitFor();
    await screenshot(page, 'editor-music');
    await page.getByLabel('How music is sent').scrollIntoViewIfNeeded();
    await screenshot(page, 'editor-music-inspector');

    // The preview plays the mix: the quiet voice and the music, brought together to the target.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByLabel('Preview video').waitFor({ timeout: 120_000 });
    const previewed = integratedLufs(newestPreview());
    expect(Math.abs(previewed - TARGET_LUFS), `the preview sounds at ${previewed} LUFS`).toBeLessThanOrEqual(1);
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('button', { name: 'Create video' }).click();
    await page.getByRole('button', { name: 'Send to the service' }).click();
    await waitForJobCreated(page, 120_000);
    await expect.poll(async () => (await listJobs(page)).find((j) => j.kind === 'avatar-video')?.phase, { timeout: 120_000 }).toBe('completed');
    const job = (await listJobs(page)).find((j) => j.kind === 'avatar-video')!;
    const sent = JSON.stringify(job.request);
    expect(sent).not.toContain('studio-music:');
    expect(sent).not.toContain('file:');
    expect(sent).toMatch(/"voice_url":"http[^"]+\/files\/up-[0-9a-f]+-mix-[0-9a-f]+\.mp3"/);
    const result = join(dir, 'result.mp4');
    writeFileSync(result, Buffer.from(await (await fetch(job.resultUrl!)).arrayBuffer()));
    const delivered = integratedLufs(result);
    expect(Math.abs(delivered - TARGET_LUFS), `the result sounds at ${delivered} LUFS`).toBeLessThanOrEqual(1);
    expect(studio.consoleErrors).toEqual([]);
  });
});
