// What the Campaigns page reads of a campaign as it runs (issue 68): its status without its rows, and a
// window of its rows at a time, cut on the host from the view campaigns.get sends whole.
import { describe, expect, it } from 'vitest';
import { campaignPagesCalls, campaignRowsPage, campaignStatus } from '@common/bridge/campaign-pages';
import type { CampaignView } from '@common/bridge/campaigns';
import { campaignFigures, pacedView } from '@common/campaign/progress';
import type { CampaignRowRecord } from '@common/campaign/record';
import { OUTCOME_UNKNOWN } from '@common/campaign/row-review';

const MIN = 60_000;
const T0 = 1_700_000_000_000;

const row = (n: number, state: CampaignRowRecord['state'], problems: string[] = []): CampaignRowRecord =>
  ({
    row: n,
    state,
    problems,
    values: {},
    fileName: `${n + 1}.mp4`,
    take: 0,
    voiceovers: { s1: 'https://v' },
    resultUrl: state === 'done' ? `https://r/${n}` : null,
    expiresAt: null,
    savedAt: state === 'done' ? T0 + (n + 1) * MIN : null,
  }) as CampaignRowRecord;

/** 5,000 rows: 40 done, 3 at their video, 2 failed (one waiting for review), 5 refused, the rest waiting. */
function bigView(): CampaignView {
  const rows = Array.from({ length: 5000 }, (_, n) => {
    if (n < 5) return row(n, 'invalid', ['{{First name}} is empty']);
    if (n < 45) return row(n, 'done');
    if (n < 48) return row(n, 'video');
    if (n === 48) return row(n, 'failed', ['the video failed']);
    if (n === 49) return row(n, 'failed', [OUTCOME_UNKNOWN]);
    return row(n, 'pending');
  });
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
  const charged: Record<string, number> = {};
  for (const r of rows) if (r.state === 'done') charged[String(r.row)] = 11;
  for (const r of rows) if (r.state === 'video') charged[String(r.row)] = 1;
  return {
    id: 'c1',
    label: 'prospects.csv',
    createdAt: T0,
    state: 'running',
    outDir: '/out',
    counts,
    total: rows.length,
    pause: null,
    maxCredits: null,
    queue: null,
    variables: [],
    rows,
    charged,
    balanceNote: null,
    atService: null,
    work: null,
  };
}

describe("a campaign's status", () => {
  it('holds no row, and says the same figures as the view with its rows does', () => {
    const view = bigView();
    const status = campaignStatus(view);
    expect('rows' in status).toBe(false);
    expect('charged' in status).toBe(false);
    expect(JSON.stringify(status).length).toBeLessThan(JSON.stringify(view).length / 20);
    const now = T0 + 60 * MIN;
    expect(campaignFigures(status, 11, now)).toEqual(campaignFigures(pacedView(view), 11, now));
    expect(status.pace.spent).toBe(40 * 11 + 3);
    // The row whose price stands for every row's: the first one sent.
    expect(status.sentRow).toBe(5);
  });

  it('counts the failed rows a retry of the failed makes again, not those waiting for review', () => {
    const status = campaignStatus(bigView());
    expect(status.counts.failed).toBe(2);
    expect(status.retriable).toBe(1);
  });
});

describe("a campaign's rows, a page at a time", () => {
  it("gives the window asked for, in the campaign order, with only its rows' charges", () => {
    const page = campaignRowsPage(bigView(), { offset: 40, limit: 10 }, new Set());
    expect(page.rows.map((r) => r.row)).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
    expect(page.charged).toEqual({ '40': 11, '41': 11, '42': 11, '43': 11, '44': 11, '45': 1, '46': 1, '47': 1 });
    expect(page.total).toBe(5000);
    expect(page.problems).toBe(7);
  });

  it('keeps the rows with a problem when asked, a done row whose copy the record of copies has lost among them', () => {
    const page = campaignRowsPage(bigView(), { offset: 0, limit: 50, only: 'problems' }, new Set(['https://r/20']));
    expect(page.rows.map((r) => r.row)).toEqual([0, 1, 2, 3, 4, 20, 48, 49]);
    expect(page.total).toBe(8);
    expect(page.problems).toBe(8);
    expect(page.lostDone).toBe(1);
  });

  it('refuses a window larger than a page, as every call is checked at the bridge', () => {
    const args = campaignPagesCalls['campaigns.rows'].args;
    expect(args.safeParse(['c1', { offset: 0, limit: 500 }]).success).toBe(true);
    expect(args.safeParse(['c1', { offset: 0, limit: 5000 }]).success).toBe(false);
    expect(args.safeParse(['c1', { offset: -1, limit: 10 }]).success).toBe(false);
    expect(args.safeParse(['c1', { offset: 0, limit: 10, only: 'everything' }]).success).toBe(false);
  });
});
