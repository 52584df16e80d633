// A live face swap session left open by a killed web host is closed when the host starts again on the
// same data folder: created in Chromium from a detected face, the host SIGKILLed, then restarted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readPortRecord } from '../../electron/emulator/built-in';
import { readSandboxAccessKey } from '../../electron/emulator/state/access-key';
import { HANG_GUARD_MS, until } from '../wait';
import { launchBrowser, newStudioContext, screenshot } from './browser';
import { startHostProcess, stopHostProcess, type HostProcess } from './host-process';
import { watchErrors, type PageErrors } from './outage';
import { confirmPrice } from './price';

let dataDir: string;
let browser: Browser;
let host: HostProcess | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-live-crash-'));
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  if (host) await stopHostProcess(host, 'SIGKILL');
  await browser?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function openTools(url: string, errors: PageErrors): Promise<Page> {
  const context = await newStudioContext(browser);
  const page = await context.newPage();
  errors.watch(page);
  await page.goto(`${url}#/tools`);
  await page.getByRole('region', { name: 'Tools' }).waitFor();
  return page;
}

/** The sandbox's own record of a live session (it keeps its records in the data folder across restarts). */
async function sandboxSession(id: string): Promise<{ closed: boolean } | undefined> {
  const sandboxDir = join(dataDir, 'sandbox');
  const response = await fetch(`http://127.0.0.1:${readPortRecord(sandboxDir)?.port}/__sandbox/status`, {
    headers: { 'x-api-key': readSandboxAccessKey(sandboxDir)?.apiKey ?? '' },
  });
  const live = ((await response.json()) as { data: { live: Array<{ _id: string; closed: boolean }> } }).data.live;
  return live.find((s) => s._id === id);
}

/** The host's record of live sessions: those it holds open, and the closed ones it keeps for the Library. */
function recorded(): { open: string[]; closed: string[] } {
  const { data } = JSON.parse(readFileSync(join(dataDir, 'live-sessions.json'), 'utf8')) as {
    data: { sessions: { id: string }[]; closed: { id: string }[] };
  };
  return { open: data.sessions.map((s) => s.id), closed: data.closed.map((s) => s.id) };
}

describe('a live session left open by a killed host', () => {
  it('is closed at the next start', async () => {
    const errors = watchErrors();
    host = await startHostProcess(dataDir);
    const page = await openTools(host.url, errors);
    const tools = page.getByRole('region', { name: 'Tools' });
    // The host starts its sandbox on first use; its port record names the address of its pictures.
    await tools.locator('.n-tabs-tab[data-name="face-detection"]').click();
    await until('the sandbox to write its port record', () => readPortRecord(join(dataDir, 'sandbox')) !== null);
    const portrait = `http://127.0.0.1:${readPortRecord(join(dataDir, 'sandbox'))?.port}/sandbox/sandbox-face.png`;
    // The sandbox draws its sample pictures once, in the background, as it first starts.
    await until(
      `the sandbox to serve its sample portrait at ${portrait}`,
      () =>
        fetch(portrait).then(
          (r) => r.ok,
          () => false,
        ),
      2 * HANG_GUARD_MS,
    );
    await page.getByLabel('Media to detect faces in').fill(portrait);
    await page.getByRole('button', { name: 'Detect faces' }).click();
    const detected = page.getByRole('region', { name: 'Detected faces' });
    await detected
      .getByRole('button', { name: 'Use for live face swap' })
      .click({ timeout: HANG_GUARD_MS })
      .catch(async (error: unknown) => {
        await screenshot(page, 'faces-crash-debug');
        throw new Error(`${String(error)}; page says: ${await tools.textContent()}`);
      });
    await tools.locator('.n-tabs-tab[data-name="live-face-swap"]').click();
    await page.getByRole('button', { name: 'Create session' }).click();
    await confirmPrice(page);
    const session = page.locator('section.session');
    await session.waitFor({ timeout: HANG_GUARD_MS });
    const id = (await session.getAttribute('aria-label'))?.replace('Live session ', '') ?? '';
    expect(recorded().open).toContain(id);
    expect((await sandboxSession(id))?.closed).toBe(false);

    // A crash: no quit, no page unload reaches the host. From just before the kill until its page is
    // closed, the page may log what losing its host causes (the event stream cut, its reconnect refused,
    // a request in flight reset), as often as the timing makes it; nothing else.
    const outage = errors.outage(host.url);
    await stopHostProcess(host, 'SIGKILL');
    host = undefined;
    await page.context().close();
    outage.end();
    expect(recorded().open).toContain(id);

    host = await startHostProcess(dataDir);
    await until(`the restarted host to close live session ${id} in its record`, () => !recorded().open.includes(id));
    expect((await sandboxSession(id))?.closed).toBe(true);
    // Closed on the user's behalf, and kept among the closed sessions the Library lists with their cost.
    expect(recorded().closed).toContain(id);
    const again = await openTools(host.url, errors);
    await again.getByRole('region', { name: 'Tools' }).locator('.n-tabs-tab[data-name="live-face-swap"]').click();
    await again.getByText('No face chosen yet').waitFor();
    // The user is told what was done on their behalf.
    await again.getByText('A live face swap session was closed').waitFor({ timeout: HANG_GUARD_MS });
    expect(await again.locator('section.session').count()).toBe(0);
    await screenshot(again, 'faces-live-after-crash');
    // No error on either page but what the outage itself caused on the first.
    expect(errors.unexpected()).toEqual([]);
  });
});
