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
import { campaignRow } from './row-fixture';

const T0 = 1_800_000_000_000;
const S = 1000;
type Job = Pick<JobView, 'purpose' | 'polls' | 'finishedAt' | 'createdAt' | 'phase'>;

const row = campaignRow;

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
  phase: finishedAt === null ? 'processing' : 'completed',
});
const failedJob = (...args: Parameters<typeof job>): Job => ({ ...job(...args), phase: 'failed' });

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
    // Row 1's take is past its voiceovers; its video has made 3 of its 5: 2 requests of 9.8 left. The done
    // row and the pending one made nothing of what is left.
    expect(work.underWayMade).toBeCloseTo((9.8 - 2) / 9.8, 9);
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

  it('prices a row to come with its video only as often as rows get past their voiceovers', () => {
    // Ten takes whose voiceovers are over: eight made both (2 requests each) and their video (2); two failed
    // at their first voiceover, so sent no other and no video. Priced as if every row made every step, a
    // campaign whose rows failed 14% of the time was said to have 15% more requests left than it made.
    const rows = Array.from({ length: 10 }, (_, i) => row(i, i < 8 ? 'done' : 'failed'));
    const jobs: Job[] = [
      ...Array.from({ length: 8 }, (_, i) => [
        job(i, 'voiceover', 1, T0 + 2 * S),
        job(i, 'voiceover', 1, T0 + 3 * S),
        job(i, 'video', 1, T0 + 5 * S),
      ]).flat(),
      failedJob(8, 'voiceover', 1, T0 + 2 * S),
      failedJob(9, 'voiceover', 1, T0 + 2 * S),
    ];
    const work = campaignWork(record([...rows, row(10, 'pending')]), jobs, T0 + 10 * S);
    // Voiceovers: 18 sent by 10 takes (1.8 a row, 2 requests each); videos: by 8 of 10 (2 requests).
    expect(work.requestsPerRow).toBeCloseTo(1.8 * 2 + 0.8 * 2, 9);
  });

  it('counts a row past its voiceovers as making its video, and one before them as rows get there', () => {
    const rows = [
      ...Array.from({ length: 4 }, (_, i) => row(i, i < 3 ? 'done' : 'failed')),
      row(4, 'video'),
      row(5, 'voiceover'),
    ];
    const jobs: Job[] = [
      ...Array.from({ length: 3 }, (_, i) => [
        job(i, 'voiceover', 1, T0 + 2 * S),
        job(i, 'voiceover', 1, T0 + 3 * S),
        job(i, 'video', 1, T0 + 5 * S),
      ]).flat(),
      failedJob(3, 'voiceover', 1, T0 + 2 * S),
      // Row 4 is past its voiceovers, its video not sent yet; row 5 has one voiceover at the service, polled once.
      job(4, 'voiceover', 1, T0 + 2 * S),
      job(4, 'voiceover', 1, T0 + 3 * S),
      job(5, 'voiceover', 0, null),
    ];
    const work = campaignWork(record(rows), jobs, T0 + 10 * S);
    // 5 takes are past their voiceovers (rows 0-4): they sent 9 voiceovers (1.8 each, of 2 requests) and
    // 4 of them got to their video (of 2).
    const perRow = 1.8 * 2 + 0.8 * 2;
    expect(work.requestsPerRow).toBeCloseTo(perRow, 9);
    // Row 4 has its whole video left (2). Row 5: 1 request of its voiceover at the service, 0.8 more
    // voiceovers (1.8 less the one sent) of 2 requests, and its video as often as rows get there (0.8 of 2).
    const left = 2 + 1 + 0.8 * 2 + 0.8 * 2;
    expect(work.underWayMade).toBeCloseTo((2 * perRow - left) / perRow, 9);
  });

  it('prices a step from the steps of its kind that ended lately, once there are enough of them', () => {
    // 30 videos ended early in the run with 4 requests each (before the studio learned how long a video
    // takes, it polled more); the 20 that ended in the last two minutes took 2 each: the price follows them.
    const early = Array.from({ length: 30 }, (_, i) => job(i, 'video', 3, T0 + 10 * S));
    const lately = Array.from({ length: 20 }, (_, i) => job(30 + i, 'video', 1, T0 + 200 * S));
    const rows = [row(60, 'pending')];
    const now = T0 + 200 * S + 2 * WORK_WINDOW_MS - S;
    expect(campaignWork(record(rows), [...early, ...lately], now).requestsPerRow).toBeCloseTo(2 * 2 + 2, 9);
    // With fewer than 20 ended lately, every ended step counts: (30 × 4 + 19 × 2) / 49.
    const fewer = [...early, ...lately.slice(1)];
    expect(campaignWork(record(rows), fewer, now).requestsPerRow).toBeCloseTo(2 * 2 + (30 * 4 + 19 * 2) / 49, 9);
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
