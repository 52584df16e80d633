// Settings → Spending in Chromium: a daily limit on the sandbox refuses a paid action and says why,
// before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';
import { sandboxBalance } from './price';
import { HANG_GUARD_MS } from '../wait';
import { WEB_BRIDGE_PATHS } from '../../electron/common/bridge/contract';

let studio: StudioSession;
beforeAll(async () => {
  studio = await openStudio({ hash: '#/settings', viewport: { width: 1400, height: 1000 } });
});
afterAll(async () => {
  await studio?.close();
});

describe("the day's spending limit", () => {
  it('is set per connection in Settings and refuses past it, saying so, with nothing charged', async () => {
    const { page } = studio;
    const card = page.getByTestId('spending-card');
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'money-settings-spending-before');
    const daily = card.getByLabel(/Daily limit on "Sandbox"/);
    // Typed, committed with Enter, then left while the save is still on its way (held here until the
    // blur has happened): one save and one message, not one per keystroke or event.
    const saves: string[] = [];
    let release = () => {};
    const left = new Promise<void>((resolve) => (release = resolve));
    const isSave = (url: URL) => url.pathname === `${WEB_BRIDGE_PATHS.call}settings.update`;
    await page.route(isSave, async (route) => {
      saves.push(route.request().postData() ?? '');
      await left;
      await route.continue();
    });
    await daily.fill('1');
    await daily.press('Enter');
    await daily.blur();
    release();
    const saved = page.getByText('At most 1 credit a day on "Sandbox".');
    await saved.waitFor();
    await page.unroute(isSave);
    expect(saves).toHaveLength(1);
    expect(await saved.count()).toBe(1);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'money-settings-spending');
    const before = await sandboxBalance(page);
    await page.getByRole('button', { name: 'Voices', exact: true }).click();
    await page.getByRole('button', { name: 'Use', exact: true }).first().click();
    await page.getByLabel('Script', { exact: true }).fill('Over the limit.');
    // Nothing recorded yet, but the sandbox publishes its speech price: the limit is checked ahead.
    await page.getByRole('button', { name: 'Generate' }).click();
    const asked = page.getByRole('dialog').filter({ has: page.getByTestId('price-summary') });
    await asked.waitFor();
    const question = (await asked.textContent()) ?? '';
    expect(question).toMatch(/Price: 1 credit/);
    expect(question).toMatch(/Today's limit on this connection: 1 credit, 1 credit left\./);
    expect(question).not.toMatch(/cannot be checked ahead/);
    await screenshot(page, 'money-limit-question');
    await asked.getByTestId('price-confirm-send').click();
    await expect.poll(() => sandboxBalance(page), { timeout: HANG_GUARD_MS }).toBe(before - 1);
    // That speech cost 1 credit: the next one would pass the limit, and is refused.
    await page.getByLabel('Script', { exact: true }).fill('Over the limit, again.');
    await page.getByRole('button', { name: 'Generate' }).click();
    const refused = page.getByRole('dialog').filter({ hasText: "Over today's spending limit" });
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(
      /Today's spending limit for "Sandbox" is 1 credit; 1 credit are spent or on their way, and this costs 1 credit\. Nothing was sent\./,
    );
    await screenshot(page, 'money-limit-refused');
    expect(await sandboxBalance(page)).toBe(before - 1);
  });
});
