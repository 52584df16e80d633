// What the price question and a paused run say, from the one place both the page and the command line
// read them: how many rows the balance covers (only when a price is known), and the pause in words.
import { describe, expect, it } from 'vitest';
import type { PriceQuote } from '@common/bridge';
import { coversText, describePause, quoteCovers } from '@common/jobs/run-pause';

const line = (count: number, price: PriceQuote['items'][number]['price']) => ({ action: 'tts' as const, count, price });

describe('how many rows the balance covers', () => {
  it('spreads the known total over the rows, rounding down, from published prices and recent charges alike', () => {
    const published = { published: true as const, credits: 2, basis: 'list' };
    const judged = {
      published: false as const,
      note: 'not published',
      recent: { count: 5, credits: 3, basis: 'about 3 each' },
    };
    // 5,000 rows of 2 + 3 credits each; 1,000 credits cover 200 of them.
    expect(quoteCovers({ balance: 1_000, items: [line(5_000, published), line(5_000, judged)] }, 5_000)).toEqual({
      rows: 200,
      of: 5_000,
    });
    expect(coversText(1_000, { rows: 200, of: 5_000 })).toMatch(
      /^Your balance of 1,000 credits covers about 200 of these 5,000 rows:/,
    );
  });

  it('says nothing when no price is known, the balance is unknown, or it covers every row', () => {
    const unknown = { published: false as const, note: 'not published', recent: null };
    expect(quoteCovers({ balance: 1_000, items: [line(200, unknown)] }, 200)).toBeNull();
    expect(
      quoteCovers({ balance: null, items: [line(200, { published: true, credits: 1, basis: 'x' })] }, 200),
    ).toBeNull();
    const all = quoteCovers({ balance: 1_000, items: [line(200, { published: true, credits: 1, basis: 'x' })] }, 200);
    expect(all).toEqual({ rows: 200, of: 200 });
    expect(coversText(1_000, all)).toBeNull();
  });
});

describe('a pause in words', () => {
  it('names the reason, the rows left and their cost when known, and what to do', () => {
    expect(describePause({ reason: 'balance', at: 0, message: '', rowsLeft: 4_896, creditsLeft: 53_856 })).toBe(
      'Paused: the account ran out of credits. 4,896 rows left (about 53,856 credits); nothing failed for it. Top up the account, then resume.',
    );
    expect(describePause({ reason: 'cap', at: 0, message: '', rowsLeft: 1, creditsLeft: null })).toBe(
      'Paused: it reached the credits you allowed it. 1 row left; nothing failed for it. Raise or remove the cap, then resume.',
    );
  });
});
