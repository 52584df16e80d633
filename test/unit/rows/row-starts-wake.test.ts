// A run whose next row waits for the rows under way on its connection to end (a row nobody can price
// goes alone) looks again when one of them ends, even when they are another run's: a campaign beside a
// batch does not wait for ever once the batch's last row ends.
import { describe, expect, it } from 'vitest';
import { RowBudget } from '../../../electron/services/rows/money/row-budget';
import { RowStarts } from '../../../electron/services/rows/engine/row-starts';
import { RowHolds } from '../../../electron/services/jobs/row-holds';
import type { RowBase, RowStepPrice } from '../../../electron/services/rows/engine/row-kind';

type Row = RowBase;

function starts(
  expectedCredits: (step: RowStepPrice) => Promise<number | null> = async (step) => (step.kind === 'tts' ? 2 : null),
) {
  const rows: Record<string, Row[]> = {
    'batch/b': [{ row: 1, state: 'pending', take: 1, problems: [] }],
    'campaign/c': [{ row: 1, state: 'pending', take: 1, problems: [] }],
  };
  const woken: string[] = [];
  const work: Promise<unknown>[] = [];
  const budget = new RowBudget(async () => 1_000, new RowHolds());
  const s = new RowStarts({
    // Speech has a price; a video nobody has charged yet has none.
    jobs: { list: () => [], expectedCredits } as never,
    memory: { inMemory: (kind: string, id: string) => ({ rows: rows[`${kind}/${id}`] }) } as never,
    kindOf: () => ({}) as never,
    connections: new Map([
      ['batch/b', 'c1'],
      ['campaign/c', 'c1'],
    ]),
    stops: { spent: () => 0, pause: async () => undefined } as never,
    budget,
    again: (kind, id) => woken.push(`${kind}/${id}`),
    track: (w) => void work.push(w),
    later: () => undefined,
  });
  const kind = (name: string, step: string) => ({ name, steps: () => [{ kind: step, body: {} }] }) as never;
  const run = (id: string) => ({ id, rows: [], state: 'running' }) as never;
  const settle = async () => {
    while (work.length) await work.shift();
  };
  return { s, rows, woken, settle, kind, run };
}

describe('a run waiting for rows under way on its connection', () => {
  it("looks again when another run's row ends", async () => {
    const { s, rows, woken, settle, kind, run } = starts();
    const batch = kind('batch', 'tts');
    const campaign = kind('campaign', 'avatar-video');
    // The first asks read the balance, the next look the prices up.
    for (let i = 0; i < 2; i += 1) {
      void s.admit(batch, run('b'), rows['batch/b'][0], 'c1');
      void s.admit(campaign, run('c'), rows['campaign/c'][0], 'c1');
      await settle();
    }
    woken.length = 0;
    expect(await s.admit(batch, run('b'), rows['batch/b'][0], 'c1')).toBe(true);
    rows['batch/b'][0].state = 'speaking';
    // The campaign's row of unknown price goes alone: not beside the batch's row.
    expect(await s.admit(campaign, run('c'), rows['campaign/c'][0], 'c1')).toBe(false);
    expect(woken).toEqual([]);

    rows['batch/b'][0].state = 'done';
    s.after({ kind: 'batch', runId: 'b', row: 1 });
    expect(woken).toEqual(['campaign/c']);
    // Its price is asked again (the ended row's charges may say it), then it goes, alone.
    void s.admit(campaign, run('c'), rows['campaign/c'][0], 'c1');
    await settle();
    expect(await s.admit(campaign, run('c'), rows['campaign/c'][0], 'c1')).toBe(true);
  });

  // Fails when only the run that asked is told (the campaign then never looks at its rows again).
  it('looks again when a price it found being looked up for another run is known', async () => {
    let answer: (credits: number) => void = () => undefined;
    const { s, rows, woken, settle, kind, run } = starts(() => new Promise<number>((resolve) => (answer = resolve)));
    const batch = kind('batch', 'tts');
    const campaign = kind('campaign', 'tts');
    // The balance read first, by both.
    void s.admit(batch, run('b'), rows['batch/b'][0], 'c1');
    void s.admit(campaign, run('c'), rows['campaign/c'][0], 'c1');
    await settle();
    woken.length = 0;
    // The batch asks the price of speech; the campaign finds that question out, and waits for it too.
    expect(await s.admit(batch, run('b'), rows['batch/b'][0], 'c1')).toBe(false);
    expect(await s.admit(campaign, run('c'), rows['campaign/c'][0], 'c1')).toBe(false);
    answer(2);
    await settle();
    expect(woken.sort()).toEqual(['batch/b', 'campaign/c']);
    expect(await s.admit(campaign, run('c'), rows['campaign/c'][0], 'c1')).toBe(true);
  });
});
