// A run's progress as the Campaigns page, the batch page and the command line show it: done rows fill
// the bar (failed ones do not), the pace is measured over the recent window on a clock the test holds,
// and the cost is projected from the charges so far or else the published price.
import { describe, expect, it } from 'vitest';
import { LiveRunLine, runLine } from '../../../electron/cli/commands/progress-bars';
import type { BatchView } from '../../../electron/common/bridge/batches';
import { campaignRunProgress } from '../../../electron/common/campaign/progress';
import { batchRunProgress } from '../../../electron/common/jobs/batch-progress';
import type { CampaignRowRecord } from '../../../electron/common/campaign/record';
import {
  RATE_WINDOW_MS,
  paceText,
  progressText,
  runProgress,
  type RunProgressInput,
  type RunTally,
} from '../../../electron/common/jobs/run-progress';
import { campaignRow } from '../campaign/row-fixture';

const T0 = 1_800_000_000_000;
const MIN = 60_000;
const none: RunTally = { done: 0, failed: 0, underWay: 0, waiting: 0, refused: 0, cancelled: 0 };

function input(over: Partial<RunProgressInput> = {}): RunProgressInput {
  return {
    tally: none,
    doneAt: [],
    running: true,
    sendingSince: T0,
    spent: 0,
    rowCharge: null,
    rowPrice: null,
    ...over,
  };
}

describe('runProgress', () => {
  it('fills the bar with done rows only: 90 made and 4,896 failed of 4,986 is 1 %, not 100 %', () => {
    const progress = runProgress(input({ tally: { ...none, done: 90, failed: 4896 }, running: false }), T0);
    expect(progress.percent).toBe(1);
    expect(progress.planned).toBe(4986);
    expect(progressText(progress, false)).toBe('90 done, 4,896 failed of 4,986 rows');
  });

  it('leaves rows the check refused and cancelled rows out of the bar, and names them apart', () => {
    const tally = { ...none, done: 3, waiting: 1, refused: 2, cancelled: 4 };
    const progress = runProgress(input({ tally, running: false }), T0);
    expect(progress.percent).toBe(75);
    expect(progressText(progress, false)).toBe(
      '3 done, 1 waiting, 2 not sent (check), 4 cancelled of 10 rows (75% of the 4 it makes)',
    );
  });

  it('names the rows held until their user fits them apart, out of the bar', () => {
    const progress = runProgress(input({ tally: { ...none, done: 200, held: 1 }, running: false }), T0);
    expect(progress.percent).toBe(100);
    expect(progressText(progress, false)).toBe('200 done, 1 held until fitted of 201 rows (100% of the 200 it makes)');
  });

  it('measures rows a minute over the recent window on the given clock, and the time left at that pace', () => {
    // 20 rows finished one every 30 s from the start: 2 rows a minute.
    const doneAt = Array.from({ length: 20 }, (_, i) => T0 + (i + 1) * 30_000);
    const now = T0 + 10 * MIN;
    const progress = runProgress(input({ tally: { ...none, done: 20, underWay: 4, waiting: 36 }, doneAt }), now);
    expect(progress.perMinute).toBeCloseTo(2, 6);
    expect(progress.msLeft).toBe(20 * MIN);
    expect(progressText(progress, true)).toBe(
      '20 done, 4 under way, 36 waiting of 60 rows · 2.0 rows/min, about 20 min left',
    );
  });

  it('forgets rows older than the window: a run that sped up shows its new pace', () => {
    // 5 rows in the first 20 minutes, then one every 20 s for the last 10.
    const slow = Array.from({ length: 5 }, (_, i) => T0 + (i + 1) * 4 * MIN);
    const fast = Array.from({ length: 30 }, (_, i) => T0 + 20 * MIN + (i + 1) * 20_000);
    const progress = runProgress(
      input({ tally: { ...none, done: 35, waiting: 30 }, doneAt: [...slow, ...fast] }),
      T0 + 30 * MIN,
    );
    expect(progress.perMinute).toBeCloseTo(3, 6);
  });

  it('measures the last few minutes: after a burst of finishes, 20 rows/min where 20 are made (not 29)', () => {
    // Rows under way ended together after a resume (190 in five minutes), then the service's own pace: 20 a minute.
    const burst = Array.from({ length: 190 }, (_, i) => T0 + ((i + 1) * 5 * MIN) / 190);
    const steady = Array.from({ length: 100 }, (_, i) => T0 + 5 * MIN + (i + 1) * 3_000);
    const progress = runProgress(
      input({ tally: { ...none, done: 290, waiting: 4_600 }, doneAt: [...burst, ...steady] }),
      T0 + 10 * MIN,
    );
    expect(RATE_WINDOW_MS).toBe(5 * MIN);
    expect(progress.perMinute).toBeCloseTo(20, 6);
    expect(paceText(progress, true)).toBe('20 rows/min, about 3 h 50 min left');
  });

  it('slows its pace as the clock runs on with nothing finishing, and has none before two rows finished', () => {
    const doneAt = [T0 + MIN, T0 + 2 * MIN];
    const at = (now: number) => runProgress(input({ tally: { ...none, done: 2, waiting: 8 }, doneAt }), now).perMinute;
    expect(at(T0 + 2 * MIN)).toBeCloseTo(1, 6);
    // One row after the first, in the three minutes since it.
    expect(at(T0 + 4 * MIN)).toBeCloseTo(1 / 3, 6);
    expect(runProgress(input({ doneAt: [T0 + MIN] }), T0 + 2 * MIN).perMinute).toBeNull();
    expect(progressText(runProgress(input({ tally: { ...none, waiting: 3 } }), T0 + MIN), true)).toContain(
      'estimating the time left…',
    );
  });

  it('measures a run younger than its window from its first finish: the first rows going through is not the pace', () => {
    // The first row takes two minutes to go through, then rows come out every 6 s (10 a minute).
    const doneAt = Array.from({ length: 11 }, (_, i) => T0 + 2 * MIN + i * 6_000);
    const now = T0 + 3 * MIN;
    const progress = runProgress(input({ tally: { ...none, done: 11, underWay: 20, waiting: 80 }, doneAt }), now);
    expect(progress.perMinute).toBeCloseTo(10, 6);
    expect(progress.msLeft).toBe(10 * MIN);
  });

  it('has no time left once the run is not sending (paused), though it keeps its pace', () => {
    const doneAt = [T0 + MIN, T0 + 2 * MIN];
    const progress = runProgress(
      input({ tally: { ...none, done: 2, waiting: 8 }, doneAt, running: false }),
      T0 + 2 * MIN,
    );
    expect(progress.msLeft).toBeNull();
  });

  it('projects the cost from what made rows were charged, else from the published price, else says nothing', () => {
    const tally = { ...none, done: 10, failed: 2, underWay: 3, waiting: 85 };
    const charged = runProgress(input({ tally, spent: 215, rowCharge: 20, rowPrice: 12 }), T0);
    expect(charged.projected).toEqual({ credits: 215 + 20 * 88, from: 'charges' });
    expect(progressText(charged, false)).toContain('≈ 1,975 credits in all (from the charges so far)');
    const priced = runProgress(input({ tally, rowPrice: 12 }), T0);
    expect(priced.projected).toEqual({ credits: 12 * 88, from: 'price' });
    expect(runProgress(input({ tally }), T0).projected).toBeNull();
  });
});

describe('campaignRunProgress', () => {
  const row = (n: number, state: CampaignRowRecord['state'], savedAt: number | null = null): CampaignRowRecord =>
    campaignRow(n, state, { savedAt });

  it("reads each done row's finish from when it was saved, and the charge of a made row from the made rows only", () => {
    const rows = [
      row(0, 'done', T0 + MIN),
      row(1, 'done', T0 + 2 * MIN),
      row(2, 'failed'),
      row(3, 'video'),
      row(4, 'pending'),
    ];
    const progress = campaignRunProgress(
      {
        rows,
        counts: { done: 2, failed: 1, video: 1, pending: 1 },
        state: 'running',
        createdAt: T0,
        // The failed row was charged its voiceover; the row under way too.
        charged: { '0': 10, '1': 12, '2': 1, '3': 1 },
      },
      null,
      T0 + 2 * MIN,
    );
    expect(progress.percent).toBe(40);
    // Three rows ended (two made, one failed) in the two minutes since it began sending; the row at its
    // video has no voiceover to count, so nothing of it is made yet: two rows at 1.5 a minute.
    expect(progress.perMinute).toBeCloseTo(1.5, 6);
    expect(progress.msLeft).toBe(80_000);
    // The row under way was charged 1 of its 11 already (in the 24): it adds 10, the waiting row 11.
    expect(progress.projected).toEqual({ credits: 24 + 10 + 11, from: 'charges' });
    expect(progress.creditsLeft).toBe(21);
    expect(progress.rowsLeft).toBe(2);
  });
});

describe("a young campaign's time left", () => {
  // 1,000 rows of two voiceovers, a video and the save each, four minutes after it began sending, as the
  // campaigns bench saw them: the rows under way piled up while the bound on them opened, so done rows came
  // out in bursts (100 after a minute, 200 in the last half minute) and trail what the run has made.
  const at = (state: CampaignRowRecord['state'], n: number, savedAt: number | null = null): CampaignRowRecord => ({
    row: n,
    values: {},
    fileName: `${n}.mp4`,
    state,
    problems: state === 'failed' ? ['the voiceover failed'] : [],
    take: 0,
    voiceovers: state === 'video' || state === 'download' || state === 'done' ? { s1: 'a.mp3', s2: 'b.mp3' } : {},
    resultUrl: null,
    expiresAt: null,
    savedAt,
  });
  const rows = [
    ...Array.from({ length: 100 }, (_, i) => at('done', i, T0 + MIN + i * 100)),
    ...Array.from({ length: 200 }, (_, i) => at('done', 100 + i, T0 + 3.5 * MIN + i * 100)),
    ...Array.from({ length: 50 }, (_, i) => at('failed', 300 + i)),
    ...Array.from({ length: 150 }, (_, i) => at('video', 350 + i)),
    ...Array.from({ length: 100 }, (_, i) => at('download', 500 + i)),
    ...Array.from({ length: 400 }, (_, i) => at('pending', 600 + i)),
  ];
  const counts = { done: 300, failed: 50, video: 150, download: 100, pending: 400 };
  const view = { rows, counts, state: 'running' as const, createdAt: T0, charged: {} };

  it('counts what the rows under way made and the rows that failed: 125 rows a minute, 4 min left (not 6.5)', () => {
    const progress = campaignRunProgress(view, null, T0 + 4 * MIN);
    // Made: 300 done, 50 failed, 150 rows half through (their voiceovers) and 100 three quarters (their
    // video): 500 rows' worth in 4 minutes. Left: 650 rows less the 150 rows' worth already made of them.
    expect(progress.perMinute).toBeCloseTo(125, 6);
    expect(progress.msLeft).toBe(4 * MIN);
    expect(paceText(progress, true)).toBe('125 rows/min, about 4 min left');
  });

  it('says it is estimating until the run has gone on twice as long as its first row took', () => {
    // Only the first 100 rows are done yet, a minute after the start; the rest are at their video.
    const early = {
      ...view,
      rows: rows.map((r) => (r.state === 'done' && r.row >= 100 ? at('video', r.row) : r)),
      counts: { ...counts, done: 100, video: 350 },
    };
    expect(campaignRunProgress(early, null, T0 + 1.5 * MIN).msLeft).toBeNull();
    expect(paceText(campaignRunProgress(early, null, T0 + 1.5 * MIN), true)).toBe('estimating the time left…');
    expect(campaignRunProgress(early, null, T0 + 2 * MIN).msLeft).not.toBeNull();
  });
});

describe('the projected cost counts each credit once', () => {
  it('adds a row under way at what its price leaves: 4,354 rows with their voiceovers charged are not charged them twice', () => {
    // A row costs 11: its voiceover 1, then its video 10. 634 made, 4,354 under way with their voiceover paid, 12 waiting.
    const tally = { ...none, done: 634, underWay: 4_354, waiting: 12 };
    const spent = 634 * 11 + 4_354 * 1;
    const progress = runProgress(
      input({ tally, spent, rowCharge: 11, underWayCharged: Array.from({ length: 4_354 }, () => 1) }),
      T0,
    );
    expect(progress.projected).toEqual({ credits: spent + 4_354 * 10 + 12 * 11, from: 'charges' });
    expect(progress.projected?.credits).toBe(55_000);
    expect(progress.creditsLeft).toBe(4_354 * 10 + 12 * 11);
    // A row under way not charged yet counts whole; one charged more than the price adds nothing.
    const mixed = runProgress(input({ tally: { ...none, underWay: 3 }, rowCharge: 11, underWayCharged: [12] }), T0);
    expect(mixed.projected?.credits).toBe(22);
  });
});

describe('batchRunProgress and the command line', () => {
  it("reads a completed row's finish from when its job ended; the terminal line says what the page says", () => {
    const view = {
      createdAt: T0,
      state: 'running' as const,
      counts: { completed: 2, failed: 1, waiting: 2 } as BatchView['counts'],
      // Two rows done at one and two minutes, each charged 3 credits (the host reads its rows: BatchPace).
      pace: { doneAt: [T0 + MIN, T0 + 2 * MIN], rowCharge: 3, spent: 6 },
    };
    const progress = batchRunProgress(view, null, T0 + 2 * MIN);
    expect(progress.percent).toBe(40);
    expect(runLine(progress, true)).toBe(
      '[##########--------------]  40% 2 done, 1 failed, 2 waiting of 5 rows · 1.5 rows/min, about 1 min left · ≈ 12 credits in all (from the charges so far)',
    );
  });
});

describe("the terminal's live line", () => {
  it('reads the run again at most once every two seconds however many rows change, and draws over itself', async () => {
    let now = T0;
    let reads = 0;
    const written: string[] = [];
    const progress = runProgress(input({ tally: { ...none, done: 1, waiting: 1 } }), T0);
    const line = new LiveRunLine(
      (text) => written.push(text),
      async () => {
        reads += 1;
        return { progress, running: true };
      },
      () => now,
    );
    for (let i = 0; i < 50; i += 1) line.changed();
    await line.end();
    expect(reads).toBe(2);
    now += 2_000;
    line.changed();
    await line.end();
    expect(reads).toBe(4);
    expect(written[0].startsWith('[')).toBe(true);
    expect(written.slice(1).every((text) => text.startsWith('\x1b[1F\x1b[2K'))).toBe(true);
  });

  it('waits 29 times as long as a slow read took before the next (a 100,000-row run sums for half a second)', async () => {
    let now = T0;
    let reads = 0;
    const progress = runProgress(input({ tally: { ...none, done: 1, waiting: 1 } }), T0);
    const line = new LiveRunLine(
      () => undefined,
      async () => {
        reads += 1;
        now += 200;
        return { progress, running: true };
      },
      () => now,
    );
    const began = now;
    const drawn = () => new Promise((resolve) => setTimeout(resolve, 0));
    line.changed();
    await drawn();
    expect(reads).toBe(1);
    // That read took 200 ms: 2 s after it began is too soon, and so is a moment before 29 times 200 ms.
    now = began + 2_000;
    line.changed();
    now = began + 29 * 200 - 1;
    line.changed();
    expect(reads).toBe(1);
    now = began + 29 * 200;
    line.changed();
    await drawn();
    expect(reads).toBe(2);
  });
});
