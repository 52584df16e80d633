// A batch's rows as its table reads them (batches.rows, issue 68): a window in the batch's order, all or
// those with a problem (failed, refused, held with a reason, made with a lost file), with the filter's
// total; a page past the end is empty; bad arguments are refused by the contract before the host is asked.
// The batch's other calls answer without its rows, with the figures the page draws instead.
import { describe, expect, it } from 'vitest';
import { Code } from '../../../electron/common/api/error-codes';
import { batchesCalls, type BatchRowsQuery } from '../../../electron/common/bridge/batches';
import type { JobView } from '../../../electron/common/bridge/jobs';
import type { BatchRecord, BatchRowRecord } from '../../../electron/services/voices/batch-record';
import { batchView } from '../../../electron/services/voices/batch-view';
import { createBatchesDomain } from '../../../electron/services/voices/batches-domain';

const T0 = 1_700_000_000_000;
const link = (row: number) => `https://cdn.example/batch/${row}.mp3`;

/** 12 rows: 0–5 made (row 3's file lost), 6 failed, 7 refused, 8 waiting after a refusal for credits, 9–11 waiting. */
function batch(): { record: BatchRecord; jobs: JobView[] } {
  const rows: BatchRowRecord[] = Array.from({ length: 12 }, (_, row) => ({
    row,
    line: row + 2,
    text: `Line ${row + 1}.`,
    voiceId: 'v1',
    rate: '50%',
    name: null,
    state: row <= 5 ? 'done' : row === 6 ? 'failed' : row === 7 ? 'invalid' : row === 8 ? 'speech' : 'pending',
    take: 0,
    problems: [],
  }));
  const job = (row: number, phase: JobView['phase'], extra: Partial<JobView> = {}) =>
    ({
      id: `job-${row}`,
      phase,
      purpose: { type: 'batch-row', batchId: 'b', row },
      createdAt: T0 + row,
      finishedAt: phase === 'completed' || phase === 'failed' ? T0 + 60_000 * (row + 1) : null,
      resultUrl: phase === 'completed' ? link(row) : null,
      expiresAt: phase === 'completed' ? T0 + 7 * 86_400_000 : null,
      chargedCredits: phase === 'completed' ? 2 : null,
      costEstimate: null,
      remoteId: phase === 'completed' ? `remote-${row}` : null,
      error: null,
      ...extra,
    }) as unknown as JobView;
  const jobs = [
    ...[0, 1, 2, 3, 4, 5].map((row) => job(row, 'completed')),
    job(6, 'failed', { error: { explanation: 'the voice is gone' } } as Partial<JobView>),
    // Row 8's create was refused for lack of credits: it waits to be sent again, with the reason.
    job(8, 'failed', { error: { code: Code.InsufficientCredit, explanation: 'out of credits' } } as Partial<JobView>),
  ];
  const record: BatchRecord = {
    version: 1,
    id: 'b',
    label: 'spots.csv',
    createdAt: T0,
    rows,
    invalid: [7],
    reasons: { '7': 'rate "150" is not 0% to 100%' },
    state: 'running',
    concurrency: 4,
    retry: [],
    template: '{row}',
  };
  return { record, jobs };
}

function domain(lost: ReadonlySet<string> = new Set([link(3)])) {
  const { record, jobs } = batch();
  const runner = {
    get: async (id: string) => (id === 'b' ? record : null),
    view: (r: BatchRecord) => batchView(r, jobs),
  };
  const base = { log: { info: () => undefined }, emit: () => undefined };
  return createBatchesDomain(
    base as never,
    { batches: runner, catalogue: {}, jobs: {} } as never,
    { pathOf: () => null },
    undefined,
    {},
    async () => lost,
  ).handlers;
}

/** The query as a host takes it: checked against the contract first. */
const asked = (query: BatchRowsQuery) => batchesCalls['batches.rows'].args.parse(['b', query])[1];

describe("a batch's rows a page at a time", () => {
  it('gives a window of the rows in the batch’s order, with the total the filter keeps', async () => {
    const handlers = domain();
    const first = await handlers['batches.rows']('b', asked({ offset: 0, limit: 5 }));
    expect(first.rows.map((r) => r.row)).toEqual([0, 1, 2, 3, 4]);
    expect([first.total, first.problems]).toEqual([12, 4]);
    const next = await handlers['batches.rows']('b', asked({ offset: 5, limit: 5 }));
    expect(next.rows.map((r) => [r.row, r.state])).toEqual([
      [5, 'completed'],
      [6, 'failed'],
      [7, 'invalid'],
      [8, 'waiting'],
      [9, 'waiting'],
    ]);
    expect(next.rows[0]).toMatchObject({ line: 7, jobId: 'job-5', resultUrl: link(5), chargedCredits: 2 });
  });

  it('keeps only the rows with a problem: failed, refused, held with a reason, made with a lost file', async () => {
    const page = await domain()['batches.rows']('b', asked({ offset: 0, limit: 500, filter: 'problems' }));
    expect(page.rows.map((r) => [r.row, r.state, r.problem])).toEqual([
      [3, 'completed', null],
      [6, 'failed', 'the voice is gone'],
      [7, 'invalid', 'rate "150" is not 0% to 100%'],
      [8, 'waiting', 'out of credits'],
    ]);
    expect([page.total, page.problems]).toEqual([4, 4]);
    // Without a lost file, the made row is no problem.
    const none = await domain(new Set())['batches.rows']('b', asked({ offset: 0, limit: 500, filter: 'problems' }));
    expect(none.rows.map((r) => r.row)).toEqual([6, 7, 8]);
    const second = await domain()['batches.rows']('b', asked({ offset: 2, limit: 2, filter: 'problems' }));
    expect([second.rows.map((r) => r.row), second.total]).toEqual([[7, 8], 4]);
  });

  it('answers a page past the end with no rows and the total', async () => {
    const page = await domain()['batches.rows']('b', asked({ offset: 500, limit: 50 }));
    expect([page.rows, page.total, page.problems]).toEqual([[], 12, 4]);
  });

  it('refuses bad arguments before the host is asked, and a batch it does not have', async () => {
    const { args } = batchesCalls['batches.rows'];
    expect(args.safeParse(['b', { offset: 0, limit: 500, filter: 'all' }]).success).toBe(true);
    for (const bad of [
      ['b', { offset: 0, limit: 501 }],
      ['b', { offset: 0, limit: 0 }],
      ['b', { offset: -1, limit: 10 }],
      ['b', { offset: 1.5, limit: 10 }],
      ['b', { offset: 0, limit: 10, filter: 'failed' }],
      ['b', {}],
      ['', { offset: 0, limit: 10 }],
      ['b'],
    ])
      expect(args.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    await expect(domain()['batches.rows']('b', { offset: 0, limit: 501, filter: 'all' })).rejects.toThrow();
    await expect(domain()['batches.rows']('nope', asked({ offset: 0, limit: 5 }))).rejects.toThrow('No batch "nope"');
  });

  it('answers the batch itself without its rows: its counts, total, pace and the rows Save has a file for', async () => {
    const view = await domain()['batches.get']('b');
    expect(view).not.toHaveProperty('rows');
    expect(view).toMatchObject({ total: 12, withResults: 6, counts: { completed: 6, failed: 1, invalid: 1 } });
    expect(view.pace).toEqual({
      doneAt: [1, 2, 3, 4, 5, 6].map((n) => T0 + 60_000 * n),
      rowCharge: 2,
      spent: 12,
    });
    // (Counts name only the states some row is in, as they always have; the rest is the contract's shape.)
    expect(batchesCalls['batches.get'].result.omit({ counts: true }).safeParse(view).error).toBeUndefined();
  });
});
