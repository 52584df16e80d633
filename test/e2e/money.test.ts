// No credit leaves the sandbox account unasked, in Chromium from a fresh data folder: each paid action
// shows its price (the sandbox's published list; a live session's is not published) and the balance is
// unchanged until the user says Send;
// a 60-row batch asks once with its total; a second live session is a deliberate, separate choice; the
// Library shows what every job cost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openStudio, screenshot, type StudioSession } from './browser';
import { bridgeCall, confirmPrice, sandboxBalance } from './price';
import { HANG_GUARD_MS } from '../wait';

let studio: StudioSession;
let page: Page;
const tab = (name: string) =>
  page.getByRole('region', { name: 'Tools' }).locator(`.n-tabs-tab[data-name="${name}"]`).click();

beforeAll(async () => {
  studio = await openStudio({ hash: '#/voices', viewport: { width: 1400, height: 1000 } });
  page = studio.page;
});
afterAll(async () => {
  await studio?.close();
});

/** The price question is up, and nothing was charged while it waits. */
async function askedWithoutCharge(before: number): Promise<string> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('price-summary') });
  await dialog.waitFor();
  expect(await sandboxBalance(page)).toBe(before);
  return (await dialog.textContent()) ?? '';
}

describe('every credit shown before it is spent', () => {
  it("a 60-row batch asks once with its total, charges nothing on Cancel, and each row's cost is recorded", async () => {
    const panel = page.getByRole('region', { name: 'Batch voiceovers' });
    await expect.poll(() => panel.textContent(), { timeout: HANG_GUARD_MS }).toContain('Rows without a voice use Ava');
    await panel
      .getByLabel('Batch lines')
      .fill(Array.from({ length: 60 }, (_, i) => `Spot ${i + 1}: the sale starts today.`).join('\n'));
    await panel.getByRole('button', { name: 'Check rows' }).click();
    await expect.poll(() => panel.getByTestId('batch-check-summary').textContent()).toContain('60 rows: 60 ready');
    const start = await sandboxBalance(page);

    await panel.getByRole('button', { name: 'Send 60 voiceovers' }).click();
    const said = await askedWithoutCharge(start);
    expect(said).toMatch(/Send 60 voiceovers\?/);
    // The sandbox publishes its prices, so a first run already names the total.
    expect(said).toMatch(/Price: 60 credits\s*60 × speech: 60 credits in total\./);
    expect(said).toMatch(new RegExp(`Balance: ${start.toLocaleString('en-US')} credits \\(read at`));
    expect(await page.getByTestId('price-summary').count()).toBe(1);
    await screenshot(page, 'money-batch-question');
    await confirmPrice(page, 'cancel');
    expect(await sandboxBalance(page)).toBe(start);
    expect(await bridgeCall<unknown[]>(page, 'batches.list')).toEqual([]);

    await panel.getByRole('button', { name: 'Send 60 voiceovers' }).click();
    await confirmPrice(page);
    await expect
      .poll(() => panel.getByTestId('batch-list').textContent(), { timeout: 120_000 })
      .toMatch(/Finished.*60 done/);
    const afterBatch = await sandboxBalance(page);
    const jobs = await bridgeCall<
      { kind: string; chargedCredits: number | null; chargeSource: string | null; purpose: { type: string } }[]
    >(page, 'jobs.list');
    const rows = jobs.filter((j) => j.purpose.type === 'batch-row');
    expect(rows).toHaveLength(60);
    // The rows went out side by side, each at the sandbox's published price. Together they add up to what
    // the account lost, and the batch shows its fall in balance beside them.
    expect(rows.filter((j) => j.chargeSource === 'published')).toHaveLength(60);
    expect(rows.every((j) => typeof j.chargedCredits === 'number' && j.chargedCredits > 0)).toBe(true);
    expect(rows.reduce((sum, j) => sum + (j.chargedCredits ?? 0), 0)).toBe(start - afterBatch);
    await expect
      .poll(() => panel.getByTestId('batch-balance').first().textContent())
      .toBe(`The balance fell by ${start - afterBatch} credits; its jobs' prices add up to ${start - afterBatch}.`);
    await screenshot(page, 'money-batch-balance');
  }, 300_000);

  it("text to speech names the sandbox's published price, and charges only after Send", async () => {
    await page.getByRole('button', { name: 'Use', exact: true }).first().click();
    await page.getByLabel('Script', { exact: true }).fill('One more line, asked first.');
    const before = await sandboxBalance(page);
    await page.getByRole('button', { name: 'Generate' }).click();
    const said = await askedWithoutCharge(before);
    expect(said).toMatch(/Price: 1 credit\s*the sandbox's price list: 1 credit a voiceover/);
    expect(said).toMatch(/about [\d,]+ credits left after this/);
    await screenshot(page, 'money-tts-question');
    await confirmPrice(page);
    await expect.poll(() => sandboxBalance(page), { timeout: HANG_GUARD_MS }).toBe(before - 1);
    // The balance on screen is read again at once after the paid action.
    await expect
      .poll(() => page.getByTestId('credit-balance').first().textContent(), { timeout: HANG_GUARD_MS })
      .toContain((before - 1).toLocaleString('en-US'));
  });

  it('a second live session for the same faces needs a deliberate choice, and each one asked first', async () => {
    await page.getByRole('button', { name: 'Tools', exact: true }).click();
    await tab('face-detection');
    // The sandbox serves its sample media from its own address, the one its avatar links name.
    const avatars = await bridgeCall<{ url: string }[]>(page, 'catalogue.avatars', { from: 2 });
    await page
      .getByLabel('Media to detect faces in')
      .fill(`${new URL(avatars[0].url).origin}/sandbox/sandbox-face.png`);
    await page.getByRole('button', { name: 'Detect faces' }).click();
    await page
      .getByRole('region', { name: 'Detected faces' })
      .getByRole('button', { name: 'Use for live face swap' })
      .click({ timeout: HANG_GUARD_MS });
    await tab('live-face-swap');
    const before = await sandboxBalance(page);
    await page.getByRole('button', { name: 'Create session' }).click();
    expect(await askedWithoutCharge(before)).toMatch(
      /Open a live face swap session\?.*The service charges for this; its price is not published\./s,
    );
    await confirmPrice(page);
    await page.locator('section.session').waitFor({ timeout: HANG_GUARD_MS });
    const opened = await sandboxBalance(page);
    expect(opened).toBeLessThan(before);
    expect(await page.getByTestId('live-status-known').textContent()).toMatch(
      /\((as the service answered at .*; it has no call to ask again)\)/,
    );
    // The same faces again: no Create button, only a separate, labelled choice.
    expect(await page.getByRole('button', { name: 'Create session' }).count()).toBe(0);
    await page.getByTestId('live-same-faces').waitFor();
    await page.getByTestId('live-open-another').click();
    const said = await askedWithoutCharge(opened);
    expect(said).toMatch(/A second session, paid on its own/);
    expect(said).toMatch(/On this connection the last one cost \d+ credits?\./);
    await screenshot(page, 'money-live-second-question');
    await confirmPrice(page, 'cancel');
    expect(await sandboxBalance(page)).toBe(opened);
    expect(await page.locator('section.session').count()).toBe(1);
    // Left open: the Library lists it with its cost and closes it.
  });

  it('the Library shows what every job cost', async () => {
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    const library = page.getByRole('main', { name: 'library workspace' });
    await library.getByText('Completed').first().waitFor({ timeout: HANG_GUARD_MS });
    // The tabs' counts come before the rows (the Library asks for both, and the counts may answer first).
    await library.locator('tr[data-job-id] td[data-col-key="cost"]').first().waitFor({ timeout: HANG_GUARD_MS });
    const costs = await library.locator('td[data-col-key="cost"]').allTextContents();
    expect(costs.length).toBeGreaterThan(0);
    // An estimated charge is marked as one.
    expect(costs.filter((c) => !/^~?\d+ credits?$/.test(c.trim()))).toEqual([]);
    // In all, and per batch: 60 rows at 1 credit, one more speech job, two sessions counted apart.
    const totals = library.getByTestId('cost-totals');
    await totals.locator('summary').click();
    // The part of it that is the studio's own estimate (no figure from the service) is said apart.
    const estimated = / \(~\d+ credits? of them estimated\)/;
    expect(await totals.locator('summary').textContent()).toMatch(
      new RegExp(`^Cost of the 61 jobs shown: 61 credits(${estimated.source})?$`),
    );
    // A batch is named by the label the user knows it by, not its id.
    const [batch] = await bridgeCall<{ id: string; label: string }[]>(page, 'batches.list');
    expect((await totals.getByTestId('cost-batch').textContent())?.replace(estimated, '')).toBe(
      `Batch "${batch.label}": 60 credits`,
    );
    expect(batch.label).not.toBe(batch.id);
    await screenshot(page, 'money-library-costs');

    // The open live session is listed with what opening it cost, and closed from here.
    const live = page.getByTestId('live-sessions');
    const [session] = await bridgeCall<{ id: string }[]>(page, 'live.sessions');
    const charge = live.locator(`[data-session="${session.id}"]`);
    expect(await live.locator('summary').textContent()).toMatch(
      /^\s*Live face swap sessions: 1 open, 0 closed · \d+ credits?\s*$/,
    );
    expect(await charge.getByTestId('live-session-cost').textContent()).toMatch(/^\d+ credits?$/);
    await screenshot(page, 'money-library-live-open');
    await charge.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => live.locator('summary').textContent()).toMatch(/Live face swap sessions: 0 open, 1 closed/);
    expect(await bridgeCall<unknown[]>(page, 'live.sessions')).toEqual([]);
    expect(await charge.textContent()).toMatch(/Closed .*\d+ credits?$/);
    await live.locator('summary').click();
    await live.scrollIntoViewIfNeeded();
    expect(studio.consoleErrors).toEqual([]);
  });
});
