// A batch's rows go out side by side against the sandbox, and what they cost is reconciled once for the
// batch: the balance read when it starts and when it ends, beside the sum of its rows' figures.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import { PlainPolling } from '../../../electron/services/jobs/polling-strategy';
import { readBatch } from '../../../electron/services/voices/batch-input';
import { createBatchRows } from './batch-host';
import { sandboxPerFile } from '../emulator/harness';
import { runsIn } from '../rows/folder-runs';

const { dir, sandbox } = sandboxPerFile('studio-batch-balance-');

describe("a batch's charges", () => {
  it('are reconciled with the balance read when it starts and ends; only its first row was measured alone', async () => {
    const client = new ServiceClient({
      baseUrl: sandbox().url,
      credentials: { kind: 'api-key', apiKey: sandbox().apiKey },
    });
    let balanceReads = 0;
    const engine = new JobEngine({
      storage: new MemoryLedgerStorage(),
      connections: {
        active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
        client: async () => client,
      },
      clock: { now: () => Date.now() },
      polling: new PlainPolling(),
      scheduler: {
        queued: { baseMs: 200, capMs: 500, factor: 1.5, jitter: 0.3 },
        processing: { baseMs: 200, capMs: 500, factor: 1.5, jitter: 0.3 },
      },
      balance: async () => {
        balanceReads += 1;
        return (await client.call('quotaInfo', {})).credit;
      },
    });
    engine.start();
    const { batches: runner } = createBatchRows({ engine, runs: runsIn(join(dir, 'studio')) });
    const start = sandbox().credits();
    const input = readBatch(['text', ...Array.from({ length: 6 }, (_, i) => `Line ${i + 1}.`)].join('\n'), {
      voiceId: 'sandbox_ava',
    });
    await runner.create({ id: 'b1', label: 'lines', rows: input.rows, invalid: [], concurrency: 3, template: '{row}' });
    const view = await runner.run('b1');
    engine.stop();

    expect(view.state).toBe('finished');
    expect(start - sandbox().credits()).toBe(6);
    // Speech has no published price: the first row went alone with the balance read around it, and its
    // charge priced the other five. Two more reads are the batch's own, at its start and its end, and two
    // the budget's: before its first row started, and once that row of unknown price had ended.
    const sources = engine.records().map((r) => [r.chargedCredits, r.chargeSource]);
    expect(sources.filter(([, source]) => source === 'balance')).toEqual([[1, 'balance']]);
    expect(sources.filter(([, source]) => source === 'estimate')).toHaveLength(5);
    expect(balanceReads).toBe(6);
    expect(view.balanceNote).toBe("The balance fell by 6 credits; its jobs' prices add up to 6.");
  });
});
