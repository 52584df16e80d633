import type { Page } from 'playwright-core';

/**
 * Answers the studio's price question: waits for it, returns what it said (price or "not published",
 * balance) and presses Send. Every paid action asks it first.
 */
export async function confirmPrice(page: Page, answer: 'send' | 'cancel' = 'send'): Promise<string> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('price-summary') });
  await dialog.waitFor();
  const said = (await dialog.textContent()) ?? '';
  await dialog.getByTestId(answer === 'send' ? 'price-confirm-send' : 'price-confirm-cancel').click();
  await dialog.waitFor({ state: 'detached' });
  return said;
}
