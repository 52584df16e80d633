import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';
import { confirmPrice, paidAction } from './price';
import { HANG_GUARD_MS } from '../wait';

describe('Voices workspace in Chromium against the sandbox', () => {
  let studio: StudioSession;

  beforeAll(async () => {
    studio = await openStudio({ hash: '#/voices', viewport: { width: 1400, height: 900 } });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('lists the sandbox voices with their details and plays one preview at a time', async () => {
    const { page } = studio;
    const items = page.locator('[data-testid="voice-list"] li');
    await expect.poll(() => items.count(), { timeout: HANG_GUARD_MS }).toBe(6);
    const first = items.nth(0);
    expect(await first.textContent()).toMatch(/Official/);
    const play = (i: number) => items.nth(i).getByRole('button', { name: /^(Play|Stop) preview/ });
    await expect.poll(() => play(0).isEnabled(), { timeout: HANG_GUARD_MS }).toBe(true);
    await expect.poll(() => play(1).isEnabled(), { timeout: HANG_GUARD_MS }).toBe(true);
    // The waveform is the host's measure of the preview: the page itself may not fetch media (CSP).
    expect(await first.locator('[data-waveform]').getAttribute('data-waveform')).toBe('measured');
    await play(0).click();
    await expect.poll(() => play(0).getAttribute('aria-label')).toMatch(/^Stop/);
    await play(1).click();
    await expect.poll(() => play(1).getAttribute('aria-label')).toMatch(/^Stop/);
    // Starting the second stopped the first.
    expect(await play(0).getAttribute('aria-label')).toMatch(/^Play/);
    await screenshot(page, 'voices-library');
    await play(1).click();

    await page.getByLabel('Search voices').fill('zzz-no-such-voice');
    await page.getByText('No voice matches the filters.').waitFor();
    await page.getByLabel('Search voices').fill('');
    await page
      .getByRole('button', { name: /^Add .* to favourites$/ })
      .first()
      .click();
    await page.getByText('★ Favourites').click();
    await expect.poll(() => items.count()).toBe(1);
    await page.getByText('All', { exact: true }).click();
  });

  it('refuses a bad script with reasons, then turns a script into speech that plays', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('alert').filter({ hasText: 'The script is empty' }).waitFor();
    await page.getByLabel('Script', { exact: true }).fill('Hello from the Voices workspace test.');
    expect(await page.getByTestId('script-counts').textContent()).toMatch(/6 \/ 5,000 words · 37 characters/);
    await paidAction(page, 'tts', () => page.getByRole('button', { name: 'Generate' }).click(), { cancelFirst: true });
    const result = page.getByTestId('tts-status').getByTestId('speech-result');
    await result.waitFor({ timeout: HANG_GUARD_MS });
    const playResult = result.getByRole('button', { name: /^Play Speech/ });
    await expect.poll(() => playResult.isEnabled(), { timeout: HANG_GUARD_MS }).toBe(true);
    await playResult.click();
    await expect.poll(() => result.getByRole('button', { name: /^Stop Speech/ }).count()).toBe(1);
    expect(await result.locator('.time').textContent()).toMatch(/^0:0[1-9]$/);
    await expect
      .poll(() => page.getByTestId('recent-voiceovers').textContent())
      .toMatch(/Hello from the Voices workspace test\..*50%.*expires in/);
    await screenshot(page, 'voices-tts');
  });

  it('checks the clone rule, clones a voice from a sample and lists it under My voices', async () => {
    const { page } = studio;
    await page.getByLabel('Clone script').fill('This is my cloned voice.');
    await page.getByRole('button', { name: 'Clone and speak' }).click();
    await page.getByRole('alert').filter({ hasText: 'voice_id or voice_url must be provided' }).waitFor();
    const sample = await page.evaluate(async () => {
      const r = await fetch('/bridge/call/catalogue.voices', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[{"from":3}]',
        credentials: 'same-origin',
      });
      return ((await r.json()) as { value: { preview: string }[] }).value[1].preview;
    });
    await page.getByLabel('Sample link').fill(sample);
    await expect
      .poll(() => page.getByRole('button', { name: /^Play the sample/ }).isEnabled(), { timeout: HANG_GUARD_MS })
      .toBe(true);
    await paidAction(page, 'voice-clone', () => page.getByRole('button', { name: 'Clone and speak' }).click(), {
      cancelFirst: true,
    });
    const result = page.getByTestId('clone-status').getByTestId('speech-result');
    await result.waitFor({ timeout: HANG_GUARD_MS });
    await page.getByText('My voices', { exact: true }).click();
    const mine = page.locator('[data-testid="voice-list"] li');
    await expect.poll(() => mine.count(), { timeout: HANG_GUARD_MS }).toBe(1);
    expect(await mine.first().textContent()).toMatch(/My voice.*Cloned/);
    await screenshot(page, 'voices-clone');
    expect(studio.consoleErrors).toEqual([]);
  });

  it('clones from a recording on this computer: uploaded to the sandbox storage, then sent as a link', async () => {
    const { page } = studio;
    const recording = join(mkdtempSync(join(tmpdir(), 'studio-clone-')), 'my recording.mp3');
    const sample = await page.evaluate(async () => {
      const r = await fetch('/bridge/call/catalogue.voices', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[{"from":3}]',
        credentials: 'same-origin',
      });
      return ((await r.json()) as { value: { preview: string }[] }).value[0].preview;
    });
    writeFileSync(recording, Buffer.from(await (await fetch(sample)).arrayBuffer()));
    // A photo picked by mistake is refused by what it is, before anything is uploaded or paid for.
    const photo = join(dirname(recording), 'holiday.jpg');
    execFileSync(process.env.FFMPEG_BIN ?? 'ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=64x64',
      '-frames:v',
      '1',
      photo,
    ]);
    await page.getByLabel('Choose a local sample').setInputFiles(photo);
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toContain('holiday.jpg: A voice sample must be a sound; this is a JPEG picture.');
    await expect(page.getByText('holiday.jpg · local file').count()).resolves.toBe(0);
    await screenshot(page, 'voices-clone-photo-refused');
    await page.getByLabel('Choose a local sample').setInputFiles(recording);
    await page.getByText('my recording.mp3 · local file').waitFor();
    const clones = async () =>
      page.evaluate(async () => {
        const r = await fetch('/bridge/call/jobs.list', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '[]',
          credentials: 'same-origin',
        });
        return (
          (await r.json()) as {
            value: { kind: string; phase: string; request: { voice_url?: string }; createdAt: number }[];
          }
        ).value
          .filter((j) => j.kind === 'voice-clone')
          .sort((a, b) => b.createdAt - a.createdAt);
      });
    const before = (await clones()).length;
    await page.getByLabel('Clone script').fill('Cloned from a file on my disk.');
    await page.getByRole('button', { name: 'Clone and speak' }).click();
    await confirmPrice(page);
    await expect.poll(async () => (await clones()).length, { timeout: HANG_GUARD_MS }).toBe(before + 1);
    await expect.poll(async () => (await clones())[0].phase, { timeout: HANG_GUARD_MS }).toBe('completed');
    const sent = (await clones())[0];
    expect(sent.request.voice_url).toMatch(/\/files\/up-[0-9a-f]+-my_recording\.mp3$/);
    expect(studio.consoleErrors).toEqual([]);
  });
});
