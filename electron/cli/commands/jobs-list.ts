import {
  JOB_KINDS,
  JOB_KIND_LABELS,
  JOB_PHASES,
  JOB_PHASE_LABELS,
  costGroups,
  describeCost,
  describeExpiry,
  describeTotalCost,
  formatDuration,
  type JobFilter,
  type JobPageQuery,
  type JobTotals,
  type JobView,
} from '../../common/bridge/jobs';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { openJobSource, type JobSource } from '../job-source';

/** Rows the table shows unless --limit says otherwise: a screenful or two; the rest are counted. */
export const TABLE_LIMIT = 50;
/**
 * Lines written between two waits for the reader to take them (a pipe to a slow consumer): also the jobs
 * whose copies are asked for at once (a page of jobs, as the studio answers them).
 */
const LINES_PER_DRAIN = 500;
const DAY_MS = 86_400_000;
const AGO_UNITS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };

/** Each --sort as the query's order: dates newest first unless asked, names A to Z, the dearest first. */
const SORTS: Record<string, Pick<JobPageQuery, 'sort' | 'descending'>> = {
  newest: { sort: 'created', descending: true },
  oldest: { sort: 'created', descending: false },
  kind: { sort: 'kind', descending: false },
  state: { sort: 'phase', descending: false },
  cost: { sort: 'cost', descending: true },
};

/** "2026-11-01", "2026-11-01T09:30Z" (UTC unless the time says otherwise), or a time ago: "90m", "12h", "7d", "2w". */
export function parseWhen(text: string, name: string, now: number): number {
  const ago = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w)$/.exec(text.trim());
  if (ago) return Math.round(now - Number(ago[1]) * AGO_UNITS[ago[2]!]!);
  const at = Date.parse(text);
  if (!Number.isFinite(at))
    throw new UsageError(`${name} takes a date (2026-11-01), a time (2026-11-01T09:30Z) or a time ago (12h, 7d)`);
  return at;
}

const list = (args: ParsedArgs, name: string): string[] | undefined => {
  const value = args.flags[name];
  if (value === undefined || value === true) return undefined;
  return Array.isArray(value) ? value : [value];
};

/** The filter the flags ask for; flags not given narrow nothing. */
export function filterOf(args: ParsedArgs, now: number): JobFilter {
  const since = flag(args, '--since');
  const until = flag(args, '--until');
  const filter: JobFilter = {
    kinds: list(args, '--kind') as JobFilter['kinds'],
    phases: list(args, '--state') as JobFilter['phases'],
    projectId: flag(args, '--project'),
    batchId: flag(args, '--batch'),
    campaignId: flag(args, '--campaign'),
    createdFrom: since === undefined ? undefined : parseWhen(since, '--since', now),
    createdBefore: until === undefined ? undefined : parseWhen(until, '--until', now),
    expiringWithinMs: args.flags['--expiring'] === true ? DAY_MS : undefined,
    search: flag(args, '--search'),
  };
  // Only what was given crosses to the studio (its schema refuses nothing else, but JSON drops undefined anyway).
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as JobFilter;
}

function pad(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** The table's header and one line per job. */
export function formatRows(jobs: readonly JobView[], now: number): string[] {
  const header = `${pad('ID', 9)}${pad('KIND', 16)}${pad('STATUS', 17)}${pad('AGE', 10)}${pad('RESULT', 16)}${pad('COST', 13)}SUMMARY`;
  return [
    header,
    ...jobs.map(
      (j) =>
        `${pad(j.id.slice(0, 8), 9)}${pad(JOB_KIND_LABELS[j.kind], 16)}${pad(JOB_PHASE_LABELS[j.phase], 17)}${pad(formatDuration(now - j.createdAt), 10)}${pad(describeExpiry(j, now), 16)}${pad(describeCost(j), 13)}${j.summary}`,
    ),
  ];
}

const count = (n: number) => `${n.toLocaleString('en-US')} job${n === 1 ? '' : 's'}`;

/**
 * The table of the shown jobs, then how many more the filter leaves, then what they all cost (the
 * database's sum over every one) and, per project and batch, what the shown ones cost.
 */
export function formatTable(jobs: readonly JobView[], totals: JobTotals, now: number, filtered: boolean): string {
  if (totals.count === 0) return filtered ? 'No jobs match.' : 'No jobs yet.';
  const groups = costGroups(jobs);
  const more = totals.count - jobs.length;
  const perGroup = [
    ...[...groups.projects].map(([id, total]) => `  project ${id}: ${describeTotalCost(total)}`),
    ...[...groups.batches].map(([id, total]) => `  batch ${id}: ${describeTotalCost(total)}`),
  ];
  if (more <= 0)
    return [...formatRows(jobs, now), '', `Cost: ${describeTotalCost(totals.cost)}`, ...perGroup].join('\n');
  return [
    ...formatRows(jobs, now),
    '',
    `${more.toLocaleString('en-US')} more ${more === 1 ? 'job' : 'jobs'} not shown (--limit N shows more; --json lists them all).`,
    `Cost of all ${count(totals.count)}: ${describeTotalCost(totals.cost)}`,
    ...(perGroup.length > 0 ? [`Of the ${jobs.length} shown:`, ...perGroup] : []),
  ].join('\n');
}

/**
 * One job per line, each with what it cost in words and its saved copies checked on disk now, written
 * as it is read: a ledger of any size streams through a few hundred jobs at a time, their copies looked
 * up by job (never the whole record of copies).
 */
async function streamJson(source: JobSource, query: Omit<JobPageQuery, 'limit'>, limit: number | undefined, io: CliIo) {
  let held: JobView[] = [];
  const write = async () => {
    const copies = await source.copies(held.map((job) => job.id));
    for (const job of held)
      io.out(JSON.stringify({ ...job, cost: describeCost(job), copies: copies.get(job.id) ?? [] }));
    held = [];
    await io.drained?.();
  };
  for await (const job of source.each({ ...query, limit })) {
    held.push(job);
    if (held.length === LINES_PER_DRAIN) await write();
  }
  if (held.length > 0) await write();
}

export const jobsListCommand: CliCommand = {
  name: 'jobs list',
  summary:
    'the jobs in the ledger, newest first (the first 50 unless --limit; --json streams every one, one per line), with what they cost in all and per project and batch',
  options: [
    {
      name: '--limit',
      value: 'N',
      help: `show at most N jobs (default ${TABLE_LIMIT} in the table; with --json, all of them)`,
      range: { min: 1, max: 1_000_000_000, integer: true },
    },
    { name: '--kind', value: 'KIND', help: 'only jobs of these kinds', choices: JOB_KINDS, multiple: true },
    { name: '--state', value: 'STATE', help: 'only jobs in these states', choices: JOB_PHASES, multiple: true },
    { name: '--project', value: 'ID', help: 'only the jobs of this project' },
    { name: '--batch', value: 'ID', help: "only this voiceover batch's jobs" },
    { name: '--campaign', value: 'ID', help: "only this campaign's jobs" },
    {
      name: '--since',
      value: 'WHEN',
      help: 'only jobs created since then: a date (2026-11-01, UTC), a time (2026-11-01T09:30Z) or a time ago (90m, 12h, 7d, 2w)',
    },
    { name: '--until', value: 'WHEN', help: 'only jobs created before then (as --since)' },
    { name: '--expiring', help: 'only completed jobs whose result link expires within 24 hours' },
    {
      name: '--search',
      value: 'TEXT',
      help: "only jobs whose summary holds TEXT (any case), or whose id or the service's starts with it",
    },
    {
      name: '--sort',
      value: 'ORDER',
      help: 'the order (default newest; cost: the dearest first)',
      choices: Object.keys(SORTS),
    },
    {
      name: '--json',
      help: 'print JSON Lines on stdout: one job per line (its record, cost in words and saved copies), nothing when none match; errors as JSON',
    },
  ],
  async run(args, io) {
    const now = Date.now();
    const filter = filterOf(args, now);
    const order = SORTS[flag(args, '--sort') ?? 'newest']!;
    const limitText = flag(args, '--limit');
    const json = args.flags['--json'] === true;
    const limit = limitText === undefined ? (json ? undefined : TABLE_LIMIT) : Number(limitText);
    const source = await openJobSource(args, io);
    try {
      if (json) await streamJson(source, { filter, ...order }, limit, io);
      else {
        const shown: JobView[] = [];
        for await (const job of source.each({ filter, ...order, limit })) shown.push(job);
        io.out(formatTable(shown, await source.totals(filter), now, Object.keys(filter).length > 0));
      }
    } finally {
      await source.close();
    }
    return EXIT.ok;
  },
};
