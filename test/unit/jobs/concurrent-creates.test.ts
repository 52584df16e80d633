// Paid creates on one connection go out side by side, and the day's limit still holds: each create is
// counted at its price from its admission until its answer is on its record, so many sent at once pass
// the limit by at most one job's price. Against the fake service with its creates held open.
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobSubmission } from '../../../electron/common/bridge/jobs';
import { ServiceClient, type FetchLike } from '../../../electron/services/client';
import { JobEngine, type JobEngineDeps } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import { FakeService, tts } from './fake-service';
import { until } from '../../wait';

const CREATES = ['/api/open/v3/audio/create', '/api/open/v4/characterSwap/create'];
const NOW = 1_700_000_000_000;

/** The fake service behind a door: creates wait at it (charged as they arrive) until the test opens it. */
class HeldCreates {
  open = 0;
  maxOpen = 0;
  private readonly held: (() => void)[] = [];

  constructor(
    private readonly service: FakeService,
    private readonly charge: (path: string) => void,
  ) {}

  readonly fetch: FetchLike = async (input, init) => {
    const path = new URL(input).pathname;
    if (CREATES.includes(path)) {
      this.charge(path);
      this.open += 1;
      this.maxOpen = Math.max(this.maxOpen, this.open);
      await new Promise<void>((resolve) => this.held.push(resolve));
      this.open -= 1;
    }
    return this.service.fetch(input, init);
  };

  /** Lets the creates waiting now through (those that arrive later wait in their turn). */
  letThrough(): void {
    for (const go of this.held.splice(0)) go();
  }
}

let service: FakeService;
let storage: MemoryLedgerStorage;

function engine(door: HeldCreates, extra: Partial<JobEngineDeps> = {}): JobEngine {
  const client = new ServiceClient({
    baseUrl: 'http://fake.test',
    credentials: { kind: 'api-key', apiKey: 'fake-key-123456' },
    fetch: door.fetch,
    sleep: async () => undefined,
  });
  const e = new JobEngine({
    storage,
    connections: {
      active: async () => ({ id: 'c1', name: 'Fake', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => NOW },
    // No polling: what is tested ends with each create's answer.
    timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    random: () => 0.5,
    ...extra,
  });
  e.start();
  return e;
}

/** Row `row` of batch b1: its own text, sent on the batch's confirmation. */
const row = (row: number): JobSubmission => ({
  kind: 'tts',
  body: { ...tts, input_text: `Row ${row}` },
  purpose: { type: 'batch-row', batchId: 'b1', row },
  confirmation: { by: 'batch', batchId: 'b1' },
});

/** A 5 s character swap at 720p: a published price of 10 credits. */
const swap = (n: number): JobSubmission => ({
  kind: 'character-swap',
  body: { image: `https://x.test/${n}.png`, video: 'https://x.test/s.mp4', duration: 5, resolution: '720p' },
  confirmation: { by: 'script' },
});

/** Submits all at once; answers how each ended (its job, or why it was refused). */
function submitAll(e: JobEngine, submissions: JobSubmission[]) {
  const outcomes: ({ ok: true } | { ok: false; code: unknown; message: string })[] = [];
  const all = Promise.all(
    submissions.map((s) =>
      e.submit(s).then(
        () => outcomes.push({ ok: true }),
        (error: { code?: unknown; message: string }) =>
          outcomes.push({ ok: false, code: error.code, message: error.message }),
      ),
    ),
  );
  return { outcomes, all };
}

beforeEach(() => {
  service = new FakeService(() => NOW);
  storage = new MemoryLedgerStorage();
});

describe('paid creates on one connection', () => {
  it('go out side by side; only the first of a kind whose price nobody can say goes alone, measured by the balance', async () => {
    let balance = 1_000;
    let balanceReads = 0;
    const door = new HeldCreates(service, () => (balance -= 3));
    const e = engine(door, {
      balance: async () => {
        balanceReads += 1;
        return balance;
      },
    });
    const { all } = submitAll(
      e,
      Array.from({ length: 8 }, (_, i) => row(i)),
    );
    // Speech has no published price and this connection was never charged for it: the first goes alone.
    await until('the first create to reach the service', () => door.open === 1);
    expect(balanceReads).toBe(1);
    door.letThrough();
    // Its measured charge is the guide now: the other seven go at once.
    await until('seven creates held open at the service at once', () => door.open === 7);
    expect(door.maxOpen).toBe(7);
    door.letThrough();
    await all;
    expect(balanceReads).toBe(2);
    // The page is told where each charge came from.
    expect(
      e
        .list()
        .map((j) => j.chargeSource)
        .sort(),
    ).toEqual(['balance', ...Array(7).fill('estimate')]);
    const records = e.records();
    expect(records.filter((r) => r.chargeSource === 'balance').map((r) => r.chargedCredits)).toEqual([3]);
    expect(records.filter((r) => r.chargeSource === 'estimate').map((r) => r.chargedCredits)).toEqual(Array(7).fill(3));
  });

  it('a hand-made job keeps its balance-measured charge when it is alone, and not when another create went beside it', async () => {
    let balance = 1_000;
    let balanceReads = 0;
    const door = new HeldCreates(service, (path) => (balance -= path.includes('characterSwap') ? 10 : 3));
    const e = engine(door, {
      balance: async () => {
        balanceReads += 1;
        return balance;
      },
    });
    const alone = e.submit(swap(1));
    await until('the hand-made create to reach the service', () => door.open === 1);
    door.letThrough();
    await alone;
    expect(balanceReads).toBe(2);
    // The service's own figure would win; the fake's swap answer has none, so the measured fall stands.
    expect(e.records()[0]).toMatchObject({ chargedCredits: 10, chargeSource: 'balance', balanceBefore: 1_000 });

    const swapped = (n: number) =>
      e.records().find((r) => (r.request as { image: string }).image.endsWith(`/${n}.png`));
    const first = e.submit(swap(2));
    await until('the second hand-made create to reach the service', () => door.open === 1);
    const beside = e.submit(swap(3));
    await until('a third create beside it', () => door.open === 2);
    door.letThrough();
    await Promise.all([first, beside]);
    // Another create went out while the first was measured: the fall is not its own, the published price stands.
    expect([swapped(2), swapped(3)].map((r) => [r?.chargedCredits, r?.chargeSource])).toEqual([
      [10, 'published'],
      [10, 'published'],
    ]);
  });

  it("stop at the day's limit when many are sent at once: creates on their way count at their price", async () => {
    const door = new HeldCreates(service, () => undefined);
    const e = engine(door, { spending: () => ({ skipQuestionUnder: null, dailyLimits: { c1: 95 } }) });
    const { outcomes, all } = submitAll(
      e,
      Array.from({ length: 20 }, (_, i) => swap(i)),
    );
    // Every create either waits at the service or was refused: nothing of them is left to decide.
    await until('each create to be held open or refused', () => door.open + outcomes.length === 20);
    const open = door.open;
    door.letThrough();
    await all;
    const sent = e.records().filter((r) => r.remoteId !== null);
    const charged = sent.reduce((sum, r) => sum + (r.chargedCredits ?? 0), 0);
    expect(
      charged,
      `${open} creates of 10 credits went out at once under a limit of 95: ${charged} credits in all`,
    ).toBeLessThanOrEqual(95 + 10);
    expect(open).toBe(9);
    expect(charged).toBe(90);
    const refused = outcomes.filter((o) => !o.ok);
    expect(refused).toHaveLength(11);
    expect(refused[0]).toMatchObject({
      code: 'spending-limit',
      message: expect.stringMatching(/limit for "Fake" is 95 credits; 90 credits are spent or on their way/),
    });
  });

  it('a price nobody can say goes alone under a limit, so its charge is known before the next one goes', async () => {
    let balance = 100;
    const door = new HeldCreates(service, () => (balance -= 3));
    const e = engine(door, {
      balance: async () => balance,
      spending: () => ({ skipQuestionUnder: null, dailyLimits: { c1: 10 } }),
    });
    const { outcomes, all } = submitAll(
      e,
      Array.from({ length: 10 }, (_, i) => row(i)),
    );
    await until('the first create alone at the service', () => door.open === 1);
    door.letThrough();
    await until('the others to be held open or refused', () => door.open + outcomes.length === 10);
    // Measured at 3: two more fit under 10 (3 + 3 + 3), and go side by side; the other seven are refused.
    expect(door.open).toBe(2);
    door.letThrough();
    await all;
    const charged = e.records().reduce((sum, r) => sum + (r.chargedCredits ?? 0), 0);
    expect(charged).toBe(9);
    expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.code === 'spending-limit')).toBe(true);
  });
});
