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

/** Calls the studio's bridge from inside the page (same origin, same access cookie as the UI). */
export async function bridgeCall<T>(page: Page, channel: string, ...args: unknown[]): Promise<T> {
  const outcome = await page.evaluate(async ({ channel, args }) => {
    const response = await fetch(`/bridge/call/${encodeURIComponent(channel)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args), credentials: 'same-origin' });
    return (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  }, { channel, args });
  if (!outcome.ok) throw new Error(`${channel}: ${outcome.error?.message}`);
  return outcome.value as T;
}

/** The sandbox account's credits now, as quota/info answers. */
export async function sandboxBalance(page: Page): Promise<number> {
  return (await bridgeCall<{ credit: number }>(page, 'connections.balance')).credit;
}
