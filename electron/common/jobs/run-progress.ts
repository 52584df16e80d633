/**
 * Where a run of rows (a campaign, a batch of voiceovers) stands, in the figures a marketer plans with:
 * rows done, failed and waiting apart, the pace over the last minutes, the time left at that pace and
 * what the whole run will have cost. One pure function for the studio's pages and the command line, so
 * both say the same; the time is passed in (tests pass their own).
 */
import { creditsText } from './cost-model';

/**
 * How recent the rows are that the pace is measured on: a few minutes, as the row engine bounds its rows
 * under way by. A longer window kept a burst of finishes (rows under way ending together after a resume or
 * a top-up) in the pace long after it was over: 29 rows a minute shown while 20 were made.
 */
export const RATE_WINDOW_MS = 5 * 60_000;

/**
 * How recent the requests are that a run's work pace is measured on (RunProgressInput.recentWork): the
 * last minute. Requests go at the account's rate all through a run, so a minute is steady, where done
 * rows needed five; measured over five, the slow first minute of a short run stayed in its pace (time
 * left 55% too long at 30% of a 1,000-row run, against 23% over the last minute; 19% and 3% too long for
 * the run whose videos the sandbox rendered). The requests are counted as they leave (campaignWork).
 */
export const WORK_WINDOW_MS = 60_000;

/** Fewer rows than this in the window give no pace (one finish says nothing about the next). */
const MIN_ROWS_FOR_RATE = 2;

export interface RunTally {
  /** Rows made (and saved). */
  done: number;
  /** Rows that ended without a result (the user may retry them). */
  failed: number;
  /** Rows sent and not ended yet. */
  underWay: number;
  /** Rows not sent yet. */
  waiting: number;
  /** Rows the check refused: never sent. */
  refused: number;
  /** Rows cancelled before they were sent. */
  cancelled: number;
  /** Rows kept back until their user fits them (a campaign row whose voice overruns its scene): not made by the run. */
  held?: number;
}

export interface RunProgressInput {
  tally: RunTally;
  /** When each row that is done now was finished (ms since the epoch), as far as it is known. */
  doneAt: readonly number[];
  /** Whether the run sends rows now (paused, cancelled and finished runs have no time left). */
  running: boolean;
  /** When the run (last) began sending: the pace is not measured over time before it. */
  sendingSince: number;
  /** Credits charged so far for the run's rows, made or not. */
  spent: number;
  /** What a made row was charged on average (its steps together); null before a made row was charged. */
  rowCharge: number | null;
  /**
   * What each row under way has been charged so far (a campaign row's voiceovers before its video). These
   * charges are in `spent` already, so such a row's projection adds only what its price leaves.
   */
  underWayCharged?: readonly number[];
  /** The published price of one row, or null when it is not published. */
  rowPrice: number | null;
  /**
   * How much of the rows under way is made, in rows: each row's steps ended over its steps, summed (two
   * rows with half their steps ended are one). Absent: rows count only once they end.
   */
  underWayMade?: number;
  /**
   * The requests the run sent lately ([when, requests]) and what a row takes: the pace is then of
   * requests, which the account's rate bounds and which go on all through a run whose rows end in bursts.
   */
  recentWork?: { sent: ReadonlyArray<readonly [number, number]>; perRow: number };
}

export interface RunProgress {
  tally: RunTally;
  /** Rows the run makes: every row but the refused and cancelled ones. */
  planned: number;
  /** Done rows among the planned ones, 0–100: failed rows do not fill the bar. */
  percent: number;
  /** Rows ended (made or failed) a minute; null until enough rows were made to measure it. */
  perMinute: number | null;
  /** Time left at that pace for the rows under way and waiting; null when unknown or not running. */
  msLeft: number | null;
  /** What the run will have cost when its rows still to make are made, and what the figure rests on. */
  projected: { credits: number; from: 'charges' | 'price' } | null;
  /** Rows not ended yet: under way and waiting (a banner's "rows left", counted now). */
  rowsLeft: number;
  /** What those rows will still cost: the projection less what is charged already (null: no price known). */
  creditsLeft: number | null;
}

/**
 * Rows done a minute among those finished in the window before `now` (and after the run began sending).
 * A run younger than the window is measured from its first finish, not from its start: the time its first
 * rows took to go through is not the pace they then come out at (at 30% of a short run, counting it
 * made the time left twice too long).
 */
export function rowsPerMinute(doneAt: readonly number[], sendingSince: number, now: number): number | null {
  const windowFull = now - RATE_WINDOW_MS >= sendingSince;
  const from = windowFull ? now - RATE_WINDOW_MS : sendingSince;
  const recent = doneAt.filter((at) => at > from && at <= now);
  if (recent.length < MIN_ROWS_FOR_RATE) return null;
  const first = recent.reduce((a, b) => Math.min(a, b), Infinity);
  const [count, span] = windowFull ? [recent.length, RATE_WINDOW_MS] : [recent.length - 1, now - first];
  if (span <= 0) return null;
  return (count / span) * 60_000;
}

/**
 * Rows a minute that the run gets through, made or failed: the pace the rows still to go end at. Rows
 * done alone were too slow a pace, on two counts. Failed rows end too (rows that will fail are among the
 * rows left): 14% of a campaign's rows failing made its time left 16% too long. And a row counts as done
 * only once its last step (the save) is over, long after its first ones: a young campaign fills with rows
 * under way (hundreds, in bursts as the bound on them opens), so its done rows trail its work by minutes:
 * 30% into a campaign the time left was 1.6 (300 rows) to 3.9 times (1,000) what it then took. So a young
 * run whose rows' steps are known is measured as what it made since it began sending (rows ended, and the
 * steps ended of the rows under way) over that time; one without them from its first finish (the time
 * before it is rows going through, not their pace); an older run, whose rows under way turn over within
 * the window, by its rows done in the window over the share of its ended rows that were made.
 */
function rowsEndedPerMinute(input: RunProgressInput, now: number): number | null {
  const { tally, sendingSince, underWayMade } = input;
  const made = input.doneAt.filter((at) => at > sendingSince && at <= now).length;
  // Nothing to measure until rows came out: before, any figure would be a guess ("estimating…").
  if (made < MIN_ROWS_FOR_RATE) return null;
  if (input.recentWork) return workPerMinute(input.recentWork, sendingSince, now);
  if (underWayMade === undefined || now - RATE_WINDOW_MS >= sendingSince) {
    const donePace = rowsPerMinute(input.doneAt, sendingSince, now);
    return donePace === null ? null : donePace / (made / (made + tally.failed));
  }
  // Until the run has gone on twice as long as its first row took, what it made is mostly its first rows
  // going through (their steps before the last count for little): the pace would be far too slow.
  const first = input.doneAt.filter((at) => at > sendingSince).reduce((a, b) => Math.min(a, b), Infinity);
  if (now - sendingSince < 2 * (first - sendingSince)) return null;
  return ((made + tally.failed + underWayMade) / (now - sendingSince)) * 60_000;
}

/**
 * Rows' worth of requests made a minute over the last minute (or since the run began sending, when
 * younger): the pace the rest is made at, whatever share of it the rows under way hold.
 */
function workPerMinute(work: NonNullable<RunProgressInput['recentWork']>, sendingSince: number, now: number) {
  const from = Math.max(sendingSince, now - WORK_WINDOW_MS);
  if (now <= from) return null;
  const requests = work.sent.reduce((sum, [at, n]) => (at > from && at <= now ? sum + n : sum), 0);
  return (requests / work.perRow / (now - from)) * 60_000;
}

/** Rows the run makes: every row but the refused and cancelled ones. */
const plannedOf = (tally: RunTally) => tally.done + tally.failed + tally.underWay + tally.waiting;

/** Done rows among the rows the run makes, 0–100 (a run that makes none is whole). Failed rows are not done. */
export function donePercent(tally: RunTally): number {
  const planned = plannedOf(tally);
  return planned === 0 ? 100 : Math.floor((tally.done / planned) * 100);
}

export function runProgress(input: RunProgressInput, now: number): RunProgress {
  const { tally } = input;
  const planned = plannedOf(tally);
  const percent = donePercent(tally);
  const perMinute = rowsEndedPerMinute(input, now);
  const left = tally.underWay + tally.waiting;
  // What is left to make: the rows not ended, less what is made of those under way.
  const toMake = Math.max(0, left - (input.underWayMade ?? 0));
  const msLeft = input.running && perMinute !== null ? Math.round((toMake / perMinute) * 60_000) : null;
  const projected = projectedCost(input);
  const creditsLeft = projected === null ? null : round(Math.max(0, projected.credits - input.spent));
  return { tally, planned, percent, perMinute, msLeft, projected, rowsLeft: left, creditsLeft };
}

/**
 * Each credit once: what is charged so far, plus each row under way at what its price leaves after its
 * own charges (they are in the charges so far), plus each waiting row at what a made row was charged
 * (before any was, at the published price); null when neither is known. Counting a row under way at a
 * whole row's price again added its voiceovers twice (≈ 61,803 projected where 54,900 was spent).
 */
function projectedCost(input: RunProgressInput): RunProgress['projected'] {
  const perRow = input.rowCharge ?? input.rowPrice;
  if (perRow === null) return null;
  const charged = input.underWayCharged ?? [];
  const uncharged = Math.max(0, input.tally.underWay - charged.length);
  const underWay = charged.reduce((sum, credits) => sum + Math.max(0, perRow - credits), 0) + uncharged * perRow;
  return {
    credits: round(input.spent + underWay + perRow * input.tally.waiting),
    from: input.rowCharge !== null ? 'charges' : 'price',
  };
}

const round = (credits: number) => Math.round(credits * 100) / 100;

/** "2 h 5 min", "12 min", "40 s". */
export function durationText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The pace and what is left, in one phrase for a page or a terminal: "23.4 rows/min, about 3 h 32 min left". */
export function paceText(progress: Pick<RunProgress, 'perMinute' | 'msLeft'>, running: boolean): string {
  if (!running) return '';
  if (progress.perMinute === null) return 'estimating the time left…';
  const pace = `${progress.perMinute >= 10 ? Math.round(progress.perMinute) : progress.perMinute.toFixed(1)} rows/min`;
  return progress.msLeft === null ? pace : `${pace}, about ${durationText(progress.msLeft)} left`;
}

/** "90 done, 4,896 failed, 12 under way, 88 waiting" (zeros left out, but done). */
export function tallyText(tally: RunTally): string {
  const parts = [`${count(tally.done)} done`];
  if (tally.failed) parts.push(`${count(tally.failed)} failed`);
  if (tally.underWay) parts.push(`${count(tally.underWay)} under way`);
  if (tally.waiting) parts.push(`${count(tally.waiting)} waiting`);
  if (tally.refused) parts.push(`${count(tally.refused)} not sent (check)`);
  if (tally.cancelled) parts.push(`${count(tally.cancelled)} cancelled`);
  if (tally.held) parts.push(`${count(tally.held)} held until fitted`);
  return parts.join(', ');
}

const count = (n: number) => n.toLocaleString('en-US');

/** "≈ 9,972 credits in all (from the charges so far)"; empty when nothing is known of the price. */
export function projectedText(projected: RunProgress['projected']): string {
  if (!projected) return '';
  const from = projected.from === 'charges' ? 'from the charges so far' : 'at the published price';
  return `≈ ${creditsText(projected.credits)} in all (${from})`;
}

/**
 * The whole line, as the page's note and the terminal's progress line say it: "90 done, 12 under way,
 * 4,884 waiting of 4,986 rows · 23 rows/min, about 3 h 32 min left · ≈ 9,972 credits in all (…)".
 */
export function progressText(progress: RunProgress, running: boolean): string {
  const all = progress.planned + progress.tally.refused + progress.tally.cancelled + (progress.tally.held ?? 0);
  // The bar counts the rows the run makes: beside rows it will not make, a bare "49 %" read as 49 % of all.
  const basis = progress.planned < all ? ` (${progress.percent}% of the ${count(progress.planned)} it makes)` : '';
  return [
    `${tallyText(progress.tally)} of ${count(all)} rows${basis}`,
    paceText(progress, running),
    projectedText(progress.projected),
  ]
    .filter(Boolean)
    .join(' · ');
}
