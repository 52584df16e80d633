// A paused run's banner as the Campaigns page and `studio campaign status` both word it, from one
// function: rows left and their cost counted now (not when it paused), the steps the service still
// holds and their cost from the ledger, and a user's pause saying that no paid request leaves after it.
import { describe, expect, it } from 'vitest';
import type { BatchView } from '@common/bridge/batches';
import type { CampaignView } from '@common/bridge/campaigns';
import type { CampaignRowRecord } from '@common/campaign/record';
import { campaignFigures, pacedView, quotedRowPrice } from '@common/campaign/progress';
import { batchPauseText } from '@common/jobs/batch-progress';
import { atServiceText, runAtService } from '@common/jobs/run-at-service';
import { describePause, describeUserPause } from '@common/jobs/run-pause';
import { campaignRow } from '../campaign/row-fixture';

const T0 = 1_800_000_000_000;
const MIN = 60_000;

const row = (n: number, state: CampaignRowRecord['state'], savedAt: number | null = null): CampaignRowRecord =>
  campaignRow(n, state, { savedAt });

/** A campaign with its rows, as the command line holds it: its pace is read off them (pacedView) as the host does for the page. */
type Figured = Omit<Parameters<typeof campaignFigures>[0], 'pace'> & Pick<CampaignView, 'rows' | 'charged'>;
const figuresOf = (view: Figured, rowPrice: number | null, now: number) =>
  campaignFigures(pacedView(view), rowPrice, now);

/** 2 rows made (11 each), 2 at their video (their voiceover of 1 charged), 3 waiting. */
function campaign(over: Partial<Figured> = {}): Figured {
  const rows = [
    row(0, 'done', T0 + MIN),
    row(1, 'done', T0 + 2 * MIN),
    row(2, 'video'),
    row(3, 'video'),
    row(4, 'pending'),
    row(5, 'pending'),
    row(6, 'pending'),
  ];
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
  return {
    rows,
    counts,
    state: 'paused',
    createdAt: T0,
    charged: { '0': 11, '1': 11, '2': 1, '3': 1 },
    pause: null,
    atService: { steps: 2, credits: 20, unknown: 0 },
    ...over,
  };
}

describe("a user's pause", () => {
  it('says no paid request leaves, how many steps the service still holds and their cost, and the rows left', () => {
    const figures = figuresOf(campaign(), null, T0 + 3 * MIN);
    expect(figures.pause).toBe(
      'Paused: no paid request is sent after the pause. 2 steps still at the service finish and are saved (about 20 credits). 5 rows left (about 53 credits to finish them, those steps included); Resume goes on from there.',
    );
    expect(figures.running).toBe(false);
  });

  it('says so when nothing is at the service, and when a step has no price yet', () => {
    expect(describeUserPause({ rowsLeft: 1, creditsLeft: null, atService: { steps: 0, credits: 0, unknown: 0 } })).toBe(
      'Paused: no paid request is sent after the pause. Nothing is at the service now. 1 row left; Resume goes on from there.',
    );
    expect(atServiceText({ steps: 1, credits: 0, unknown: 1 })).toBe(
      '1 step still at the service finishes and is saved (their price is not known yet).',
    );
  });
});

describe('a pause banner counts now', () => {
  it('shows the rows left as rows end, not the count of its pause (4,979 never moved)', () => {
    const pause = { reason: 'balance' as const, at: T0, message: '', rowsLeft: 4_979, creditsLeft: 54_769 };
    const before = figuresOf(campaign({ pause }), null, T0 + 3 * MIN).pause;
    expect(before).toContain('5 rows left (about 53 credits');
    // A row under way ended (made): one fewer left, and its cost is out of what is left.
    const later = campaign({ pause });
    later.rows = later.rows.map((r) => (r.row === 2 ? { ...r, state: 'done' as const, savedAt: T0 + 4 * MIN } : r));
    later.counts = { done: 3, video: 1, pending: 3 };
    later.charged = { ...later.charged, '2': 11 };
    expect(figuresOf(later, null, T0 + 4 * MIN).pause).toBe(
      'Paused: the account ran out of credits. 2 steps still at the service finish and are saved (about 20 credits). 4 rows left (about 43 credits to finish them, those steps included); nothing failed for it. Top up the account, then resume.',
    );
  });

  it("keeps the pause's own figure per row when no price is known now", () => {
    const pause = { reason: 'cap' as const, at: T0, message: '', rowsLeft: 10, creditsLeft: 100 };
    expect(describePause(pause, { rowsLeft: 4, creditsLeft: null })).toBe(
      'Paused: it reached the credits you allowed it. 4 rows left (about 40 credits); nothing failed for it. Raise or remove the cap, then resume.',
    );
  });

  it("a batch's banner counts its rows now too", () => {
    const text = batchPauseText(
      {
        // One row done at a minute, charged 2 credits (the host reads its rows: BatchPace).
        pace: { doneAt: [T0 + MIN], rowCharge: 2, spent: 2 },
        counts: { completed: 1, processing: 1, waiting: 1 } as BatchView['counts'],
        state: 'paused',
        createdAt: T0,
        pause: { reason: 'daily-limit', at: T0, message: '', rowsLeft: 300, creditsLeft: 600 },
        atService: { steps: 1, credits: 2, unknown: 0 },
      },
      null,
      T0 + 2 * MIN,
    );
    expect(text).toContain(
      '1 step still at the service finishes and is saved (about 2 credits). 2 rows left (about 4 credits',
    );
  });
});

describe('the figures of a campaign', () => {
  it("reads the steps at the service from the run's jobs in an active phase, at their charge or estimate", () => {
    const job = (
      phase: 'queued' | 'processing' | 'submitting' | 'completed',
      charged: number | null,
      estimate: number | null,
    ) => ({
      phase,
      chargedCredits: charged,
      costEstimate: estimate === null ? null : { credits: estimate },
    });
    expect(
      runAtService([
        job('processing', 10, 9),
        job('queued', null, 10),
        job('submitting', null, null),
        job('completed', 10, 10),
      ]),
    ).toEqual({ steps: 3, credits: 20, unknown: 1, charged: 10 });
    // A service that charges at the create has paid for what it holds: the banner does not read as more to spend.
    expect(atServiceText({ steps: 15, credits: 150, unknown: 0, charged: 150 })).toBe(
      '15 steps still at the service finish and are saved (about 150 credits, charged already when sent).',
    );
    expect(atServiceText({ steps: 3, credits: 30, unknown: 0, charged: 10 })).toBe(
      '3 steps still at the service finish and are saved (about 30 credits, 10 credits of it charged already).',
    );
  });

  it('takes a published row price from its quote, and none when a step is not published', () => {
    const price = (credits: number) => ({ published: true as const, credits, basis: 'list' });
    expect(
      quotedRowPrice({
        items: [
          { action: 'tts', count: 2, price: price(1) },
          { action: 'avatar-video', count: 1, price: price(10) },
        ],
      }),
    ).toBe(12);
    expect(
      quotedRowPrice({ items: [{ action: 'tts', count: 1, price: { published: false, note: 'x', recent: null } }] }),
    ).toBeNull();
  });

  it('is the same line on the page and in the terminal: the view decides, the clock is the caller’s', () => {
    const running = campaign({ state: 'running', atService: null } as Partial<CampaignView>);
    const figures = figuresOf(running, null, T0 + 2 * MIN);
    expect(figures.pause).toBeNull();
    expect(figures.line).toBe(
      '2 done, 2 under way, 3 waiting of 7 rows · 1.0 rows/min, about 5 min left · ≈ 77 credits in all (from the charges so far)',
    );
  });
});
