import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openStudio, screenshot, studioDataDir, type StudioSession } from './browser';
import { HANG_GUARD_MS } from '../wait';

/** `studio …` as its own process (as a script runs it) on the open studio's data folder. */
function studioCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/cli/index.ts', ...args, '--json', '--data-dir', studioDataDir()],
    {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { PATH: process.env.PATH, HOME: studioDataDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

/** Calls the studio's bridge from inside the page (same origin, same access cookie as the UI). */
async function bridge<T>(page: Page, channel: string, ...args: unknown[]): Promise<T> {
  const outcome = await page.evaluate(
    async ({ channel, args }) => {
      const response = await fetch(`/bridge/call/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
        credentials: 'same-origin',
      });
      return (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
    },
    { channel, args },
  );
  if (!outcome.ok) throw new Error(`${channel}: ${outcome.error?.message}`);
  return outcome.value as T;
}

// Sent through the bridge as a screen would after the price question (speech: the sandbox's published 1 credit).
const tts = (text: string) => ({
  kind: 'tts',
  body: { input_text: text, voice_id: 'sandbox_ava', rate: '50%' },
  confirmation: { by: 'user', credits: 1 },
});

describe('Library in Chromium against the sandbox', () => {
  let studio: StudioSession;
  let earlier = 0;

  beforeAll(async () => {
    studio = await openStudio({ hash: '#/library' });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('follows real sandbox jobs to their end and explains failures', async () => {
    const { page } = studio;
    await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
    // Other e2e tests share this host and may have sent jobs already.
    earlier = (await bridge<unknown[]>(page, 'jobs.list')).length;
    const first = await bridge<{ status: string }>(page, 'jobs.submit', {
      ...tts('Hello from the library test.'),
      projectId: 'e2e-project',
    });
    expect(first.status).toBe('submitted');
    const again = await bridge<{ status: string; message: string }>(
      page,
      'jobs.submit',
      tts('Hello from the library test.'),
    );
    expect(again.status).toBe('duplicate');
    expect(again.message).toMatch(/Send it anyway\?/);
    await bridge(page, 'jobs.submit', {
      kind: 'lipsync',
      body: { video_url: 'http://127.0.0.1:9/missing.mp4', audio_url: 'http://127.0.0.1:9/missing.mp3' },
      // The sandbox's published price for a lip sync.
      confirmation: { by: 'user', credits: 10 },
    });
    const [avatar] = await bridge<{ url: string }[]>(page, 'catalogue.avatars', { from: 2 });
    const face = new URL('/sandbox/sandbox-face.png', avatar.url).href;
    await bridge(page, 'jobs.submit', {
      kind: 'character-swap',
      body: { image: face, video: avatar.url, duration: 5, resolution: '480p' },
      confirmation: { by: 'user', credits: 5 },
    });

    const rows = page.locator('tr[data-job-id]');
    await expect.poll(() => rows.count(), { timeout: HANG_GUARD_MS }).toBe(earlier + 3);
    const speech = rows.filter({ hasText: 'Hello from the library test.' });
    await expect.poll(() => speech.textContent(), { timeout: HANG_GUARD_MS }).toMatch(/Completed/);
    const lipsync = rows.filter({ hasText: 'Lip sync' });
    await expect.poll(() => lipsync.textContent(), { timeout: HANG_GUARD_MS }).toMatch(/Failed/);
    expect(await speech.textContent()).toMatch(/6 d 23 h left|7 d left/);
    // The published price (5 credits per started 5 s at 480p) until the service says what it charged.
    const swapRow = await rows.filter({ hasText: 'Character swap' }).textContent();
    expect(swapRow, swapRow ?? '').toMatch(/5 credits/);
    await screenshot(page, 'library-jobs');

    await lipsync.click();
    const problem = page.getByTestId('job-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/The job failed/);
    // The sandbox refuses unreachable inputs at create time (code 1014): explained, and nothing charged.
    expect(await problem.textContent()).toMatch(/does not exist/);
    expect(await page.getByTestId('job-details').textContent()).toMatch(/not charged/);
    await screenshot(page, 'library-job-details');
    await page.keyboard.press('Escape');
    await problem.waitFor({ state: 'hidden' });
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('keeps a long list light with virtual scrolling', async () => {
    const { page } = studio;
    // Lip syncs of unreachable files: refused at once by the sandbox, so 80 rows cost nothing to make.
    await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        bridge(page, 'jobs.submit', {
          kind: 'lipsync',
          body: { video_url: `http://127.0.0.1:9/clip-${i}.mp4`, audio_url: 'http://127.0.0.1:9/a.mp3' },
          confirmation: { by: 'user', credits: 10 },
        }),
      ),
    );
    await expect
      .poll(() => page.getByLabel('Show jobs').textContent(), { timeout: HANG_GUARD_MS })
      .toContain(`All ${earlier + 83}`);
    const rendered = await page.locator('tr[data-job-id]').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);
    await screenshot(page, 'library-many-jobs');
    // The scrollbar covers every job, though only the rows in view are fetched: at its end, the oldest.
    const window = page.getByTestId('jobs-window');
    await window.evaluate((el) => (el.scrollTop = el.scrollHeight));
    const oldest = page.locator('tr[data-job-id]').filter({ hasText: 'Hello from the library test.' });
    await expect.poll(() => oldest.count(), { timeout: HANG_GUARD_MS }).toBe(1);
    expect(await page.locator('tr[data-job-id]').count()).toBeLessThan(60);
    await screenshot(page, 'library-many-jobs-end');
    await window.evaluate((el) => (el.scrollTop = 0));
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('shows the connections panel in Settings with the sandbox ready to test', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const panel = page.getByTestId('connections-panel');
    await panel.waitFor();
    const sandbox = panel.locator('[data-connection="Sandbox"]');
    await sandbox.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => sandbox.getByRole('status').textContent(), { timeout: HANG_GUARD_MS })
      .toMatch(/^Connected\./);
    expect(await page.getByTestId('storage-notice').textContent()).toMatch(/environment/);
    await screenshot(page, 'settings-connections');
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);

  it('shows at once the jobs `studio` commands sent through it: two tts at the same time, then a lip sync of their links', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    const [first, second, avatars] = await Promise.all([
      studioCli(['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'From a script beside the open studio.']),
      studioCli(['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'A second script at the same time.']),
      studioCli(['avatars', 'list']),
    ]);
    for (const run of [first, second, avatars]) expect(run.code, run.err).toBe(0);
    const speech = [first, second].map((run) => JSON.parse(run.out) as { id: string; resultUrl: string });
    const clip = (JSON.parse(avatars.out) as { url: string }[])[0].url;
    const lipsync = await studioCli(['lipsync', '--yes', '--video', clip, '--audio', speech[0].resultUrl]);
    expect(lipsync.code, lipsync.err).toBe(0);
    const synced = JSON.parse(lipsync.out) as { id: string; phase: string };
    expect(synced.phase).toBe('completed');
    // The page never reloaded: the rows came with the host's job events, finished as the commands saw them.
    for (const id of [...speech.map((j) => j.id), synced.id]) {
      await expect
        .poll(() => page.locator(`tr[data-job-id="${id}"]`).textContent(), { timeout: HANG_GUARD_MS })
        .toMatch(/Completed/);
    }
    expect(await page.locator(`tr[data-job-id="${speech[1].id}"]`).textContent()).toContain(
      'A second script at the same time.',
    );
    expect(await page.locator(`tr[data-job-id="${synced.id}"]`).textContent()).toMatch(/Lip sync/);
    await screenshot(page, 'library-cli-jobs');
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);
});
