import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { HANG_GUARD_MS } from '../wait';

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

/** The sandbox account's credits now, as quota/info answers. */
export async function sandboxBalance(page: Page): Promise<number> {
  return (await bridgeCall<{ credit: number }>(page, 'connections.balance')).credit;
}

/** Answers a price question and returns what it said. */
export type Answer = (page: Page, answer: 'send' | 'cancel') => Promise<string>;

interface PaidJob {
  id: string;
  kind: string;
  remoteId: string | null;
  phase: string;
  chargedCredits: number | null;
}

/**
 * One paid action, from its button to its charge, held against the sandbox's balance: `start` brings up
 * the price question; with `cancelFirst` it is answered Cancel once and the balance must not move; then
 * Send, and the account must lose exactly the price the question named, or where the price is not
 * published, the charge the studio recorded for the job (so the recorded charge is checked too).
 * `answer` answers the question where it is not the shared dialog (the editor's Create dialog).
 */
export async function paidAction(
  page: Page,
  kind: string,
  start: () => Promise<void>,
  options: { cancelFirst?: boolean; answer?: Answer } = {},
): Promise<{ said: string; charged: number; job: PaidJob }> {
  const answer = options.answer ?? confirmPrice;
  const earlier = new Set((await bridgeCall<PaidJob[]>(page, 'jobs.list')).map((j) => j.id));
  const before = await sandboxBalance(page);
  if (options.cancelFirst) {
    await start();
    await answer(page, 'cancel');
    expect(await sandboxBalance(page), 'Cancel on the price question charged the account').toBe(before);
    expect((await bridgeCall<PaidJob[]>(page, 'jobs.list')).filter((j) => !earlier.has(j.id))).toEqual([]);
  }
  await start();
  const said = await answer(page, 'send');
  const published = /(?:Price|Cost): ([\d,]+) credits?/.exec(said);
  const sent = async () =>
    (await bridgeCall<PaidJob[]>(page, 'jobs.list')).find(
      (j) => !earlier.has(j.id) && j.kind === kind && (j.remoteId !== null || j.phase === 'failed'),
    );
  await expect.poll(sent, { timeout: HANG_GUARD_MS }).toBeTruthy();
  const job = (await sent()) as PaidJob;
  expect(job.remoteId, `the ${kind} job was not accepted: ${job.phase}`).not.toBeNull();
  const charged = job.chargedCredits ?? (published ? Number(published[1].replace(/,/g, '')) : null);
  expect(charged, `no charge recorded for the ${kind} job and no published price`).not.toBeNull();
  if (published) expect(charged).toBe(Number(published[1].replace(/,/g, '')));
  else expect(said).toMatch(/its price is not published|publishes no price/);
  expect(charged).toBeGreaterThan(0);
  await expect.poll(() => sandboxBalance(page), { timeout: HANG_GUARD_MS }).toBe(before - (charged as number));
  return { said, charged: charged as number, job };
}
