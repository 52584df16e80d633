// A campaign's pace is the pace of its requests: the account's rate bounds it, and requests go on all
// through a wave of rows whose done rows come out in a burst at its end (the campaigns bench saw done rows
// stand still for 100 s while 1,340 voiceovers were made). Its work is read from the ledger's jobs.
import { describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge/jobs';
import { campaignWork } from '@common/campaign/campaign-work';
import { campaignRunProgress } from '@common/campaign/progress';
import type { CampaignRecord, CampaignRowRecord } from '@common/campaign/record';
import { WORK_WINDOW_MS } from '@common/jobs/run-progress';
import { loadTemplate } from './template-fixture';

const T0 = 1_800_000_000_000;
const S = 1000;
type Job = Pick<JobView, 'purpose' | 'polls' | 'finishedAt' | 'createdAt'>;

const row = (
  n: number,
  state: CampaignRowRecord['state'],
  extra: Partial<CampaignRowRecord> = {},
): CampaignRowRecord => ({
  row: n,
  values: {},
  fileName: `${n}.mp4`,
  state,
  problems: [],
  take: 0,
  voiceovers: {},
  resultUrl: null,
  expiresAt: null,
  savedAt: null,
  ...extra,
});

/** A job made half a second before it ended, unless told when. */
const job = (
  n: number,
  step: 'voiceover' | 'video',
  polls: number,
  finishedAt: number | null,
  take = 0,
  createdAt = (finishedAt ?? T0) - S / 2,
): Job => ({
  purpose: { type: 'campaign-row', campaignId: 'c', row: n, step, take },
  polls,
  finishedAt,
  createdAt,
});

function record(rows: CampaignRowRecord[]): Pick<CampaignRecord, 'id' | 'rows' | 'target' | 'template'> {
  return { id: 'c', rows, target: 'avatar-video', template: loadTemplate() };
}

describe('campaignWork', () => {
  it("prices a row in requests from its ended steps and counts only the current take's", () => {
    const rows = [row(0, 'done', { savedAt: T0 + 10 * S }), row(1, 'video', { take: 1 }), row(2, 'pending')];
    const jobs: Job[] = [
      // Row 0: two voiceovers of 2 and 4 requests, a video of 5.
      job(0, 'voiceover', 1, T0 + 2 * S),
      job(0, 'voiceover', 3, T0 + 3 * S),
      job(0, 'video', 4, T0 + 9 * S),
      // Row 1's first take made a voiceover that does not count for what is left of it now.
      job(1, 'voiceover', 1, T0 + 4 * S, 0),
      job(1, 'voiceover', 2, T0 + 5 * S, 1),
      job(1, 'voiceover', 0, T0 + 6 * S, 1),
      // Its video is at the service, polled twice so far.
      job(1, 'video', 2, null, 1),
      // Another campaign's job is not this one's work.
      {
        ...job(2, 'voiceover', 9, T0 + 7 * S),
        purpose: { type: 'campaign-row', campaignId: 'other', row: 2, step: 'voiceover', take: 0 },
      },
    ];
    const work = campaignWork(record(rows), jobs, T0 + 20 * S);
    // Voiceovers ended: 2, 4, 2, 3, 1 requests (2.4 each); the video 5: a row of two voiceovers and a video is 9.8.
    expect(work.requestsPerRow).toBeCloseTo(2 * 2.4 + 5, 9);
    // Row 1 made 3 + 1 + 3 requests in its take: 7 of 9.8. The done row and the pending one made nothing left.
    expect(work.underWayMade).toBeCloseTo(7 / 9.8, 9);
  });

  it("counts each request a second at a time when it left: the create when made, the polls over the job's life", () => {
    const rows = [row(0, 'video')];
    // A voiceover made at 10 s and polled four times until it ended at 18 s; the video made at 20 s, polled twice so far.
    const jobs = [job(0, 'voiceover', 4, T0 + 18 * S, 0, T0 + 10 * S), job(0, 'video', 2, null, 0, T0 + 20 * S)];
    const seconds = (now: number) => campaignWork(record(rows), jobs, now).recent.map(([at, n]) => [(at - T0) / S, n]);
    expect(seconds(T0 + 24 * S)).toEqual([
      [10, 1],
      [12, 1],
      [14, 1],
      [16, 1],
      [18, 1],
      [20, 1],
      [22, 1],
      [24, 1],
    ]);
    // Requests older than twice the window are not kept.
    expect(seconds(T0 + 15 * S + 2 * WORK_WINDOW_MS).slice(0, 3)).toEqual([
      [16, 1],
      [18, 1],
      [20, 1],
    ]);
  });

  it('takes a step to be two requests until one of its kind ended', () => {
    expect(campaignWork(record([row(0, 'pending')]), [], T0).requestsPerRow).toBe(6);
  });
});

describe("a campaign's time left, at the pace of its requests", () => {
  // 200 rows of 2 voiceovers and a video (2 requests each: 6 a row). For 2 minutes the run found its pace
  // (1 request a second: 20 rows done, one every 6 s); then 100 rows admitted together make their
  // voiceovers at 2 requests a second (one voiceover a second) while no row is done; 80 wait.
  const rows = [
    ...Array.from({ length: 20 }, (_, i) => row(i, 'done', { savedAt: T0 + (6 * i + 6) * S })),
    ...Array.from({ length: 100 }, (_, i) => row(20 + i, 'voiceover')),
    ...Array.from({ length: 80 }, (_, i) => row(120 + i, 'pending')),
  ];
  const counts = { done: 20, voiceover: 100, pending: 80 };
  const doneJobs = Array.from({ length: 20 }, (_, i) => [
    job(i, 'voiceover', 1, T0 + (6 * i + 2) * S),
    job(i, 'voiceover', 1, T0 + (6 * i + 4) * S),
    job(i, 'video', 1, T0 + (6 * i + 6) * S),
  ]).flat();
  /** The wave's voiceovers ended by `seconds`: one a second from 120 s on, two to a row. */
  const waveJobs = (seconds: number) =>
    Array.from({ length: seconds - 120 }, (_, i) => job(20 + Math.floor(i / 2), 'voiceover', 1, T0 + (121 + i) * S));
  const progressAt = (seconds: number) => {
    const now = T0 + seconds * S;
    const work = campaignWork(record(rows), [...doneJobs, ...waveJobs(seconds)], now);
    return campaignRunProgress(
      { rows, counts, state: 'running' as const, createdAt: T0, charged: {}, work },
      null,
      now,
    );
  };

  it('goes on falling while no row is done, as the rows under way make their voiceovers', () => {
    const early = progressAt(180);
    const late = progressAt(240);
    // 120 requests in the last minute, however many rows are done: 20 rows a minute of 6 requests (the
    // slower first minutes are not in it: over the whole run, 15 a minute at 240 s).
    expect(early.perMinute).toBeCloseTo(20, 6);
    expect(late.perMinute).toBeCloseTo(20, 6);
    // Left: 180 rows less what their voiceovers made (60 then 120 of 2 requests, of 6 a row), at 20 a minute.
    expect(early.msLeft).toBe(8 * 60 * S);
    expect(late.msLeft).toBe(7 * 60 * S);
  });

  it("without the ledger, counts the rows' states alone: the wave's voiceovers are not seen", () => {
    const view = { rows, counts, state: 'running' as const, createdAt: T0, charged: {} };
    // A row at its voiceovers counts nothing made: 20 rows in 4 minutes, and all 180 left at 5 a minute.
    const progress = campaignRunProgress(view, null, T0 + 240 * S);
    expect(progress.perMinute).toBeCloseTo(5, 6);
    expect(progress.msLeft).toBe(36 * 60 * S);
  });
});
