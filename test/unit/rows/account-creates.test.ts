// Two workers creating on one account at once, each with its own job engine, ledger and connection id,
// sharing the queue's Redis (real) and the account's balance. A voiceover's price is not published and the
// service's answer carries no charge, so a worker measures it as the balance's fall around a create that
// goes alone: alone on the account, not only in its own process, or another worker's create falls in the
// same window and is charged to it (issue 67: a 1-credit voiceover measured at 2, and then every voiceover
// estimated at 2 by that guide). Checked here: each measured charge is the create's own, and the charges
// of both ledgers add up to the balance's fall.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { JobSubmission } from '../../../electron/common/bridge/jobs';
import { ServiceClient, type FetchLike } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { ACCOUNT_WIDE } from '../../../electron/services/jobs/account-creates';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import { RedisAccountCreates } from '../../../electron/services/rows/money/account-creates';
import { FakeService, tts } from '../jobs/fake-service';
import { redisClients, redisPerFile } from '../../redis-per-file';
import { until } from '../../wait';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

const VOICEOVER = '/api/open/v3/audio/create';
const SWAP = '/api/open/v4/characterSwap/create';

/** One account at the service: its balance, charged as each create arrives; creates held at a door while it is shut. */
class Account {
  balance = 1_000;
  open = 0;
  shut = true;
  private readonly held: (() => void)[] = [];
  readonly service = new FakeService(() => 0);

  readonly fetch: FetchLike = async (input, init) => {
    const path = new URL(input).pathname;
    if (path === VOICEOVER || path === SWAP) {
      this.balance -= path === SWAP ? 10 : 1;
      this.open += 1;
      if (this.shut) await new Promise<void>((resolve) => this.held.push(resolve));
      // Answered a moment later: creates of both workers overlap at the service.
      else await new Promise((resolve) => setTimeout(resolve, 2));
      this.open -= 1;
    }
    return this.service.fetch(input, init);
  };

  letThrough(): void {
    this.shut = false;
    for (const go of this.held.splice(0)) go();
  }
}

/** A worker: its own folder's connection id and ledger, the account's key, the queue's Redis; `waits` counts its waits on the account. */
function worker(account: Account, name: string, space: string, shared = true) {
  const service = new ServiceClient({
    baseUrl: 'http://fake.test',
    credentials: { kind: 'api-key', apiKey: 'fake-key-123456' },
    fetch: account.fetch,
    sleep: async () => undefined,
  });
  let waits = 0;
  const creates = new RedisAccountCreates(client(), {
    prefix: space,
    sleep: (ms) => ((waits += 1), new Promise((resolve) => setTimeout(resolve, ms))),
  });
  const connectionId = `${name}-connection`;
  const engine = new JobEngine({
    storage: new MemoryLedgerStorage(),
    connections: {
      active: async () => ({ id: connectionId, name, webhookUrl: null }),
      client: async () => service,
    },
    clock: { now: () => 1_700_000_000_000 },
    // No polling: what is checked ends with each create's answer.
    timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    random: () => 0.5,
    balance: async () => account.balance,
    // The account by its proof, as the hosts name it: the same for both workers, whose connection ids differ.
    account: shared ? { creates, name: async () => service.account(ACCOUNT_WIDE)?.proof ?? null } : undefined,
  });
  engine.start();
  return { engine, waits: () => waits };
}

const voiceover = (batch: string, row: number): JobSubmission => ({
  kind: 'tts',
  body: { ...tts, input_text: `${batch} row ${row}` },
  purpose: { type: 'batch-row', batchId: batch, row },
  confirmation: { by: 'batch', batchId: batch },
});

/** A 5 s character swap at 720p, a row's: a published price of 10 credits, never measured. */
const swap = (n: string): JobSubmission => ({
  kind: 'character-swap',
  body: { image: `https://x.test/${n}.png`, video: 'https://x.test/s.mp4', duration: 5, resolution: '720p' },
  purpose: { type: 'batch-row', batchId: `swaps-${n}`, row: 0 },
  confirmation: { by: 'batch', batchId: `swaps-${n}` },
});

const charges = (engine: JobEngine) =>
  engine.records().map((r) => ({ kind: r.kind, credits: r.chargedCredits, source: r.chargeSource }));

describe("two workers' creates on one account", () => {
  it("hold back another worker's create while one is measured, so its charge is its own", async () => {
    const account = new Account();
    const space = prefix();
    const w1 = worker(account, 'w1', space);
    const w2 = worker(account, 'w2', space);
    // w1's first voiceover: no price, no guide. It goes alone and holds the account's lease.
    const first = w1.engine.submit(voiceover('b1', 1));
    await until("w1's voiceover at the service", () => account.open === 1);
    // w2 sends a swap and its own first voiceover meanwhile: on the account, they wait for w1's to be answered.
    const beside = [w2.engine.submit(swap('s1')), w2.engine.submit(voiceover('b2', 1))];
    await until("w2's swap at the service, or waiting on the account", () => account.open > 1 || w2.waits() >= 5);
    expect(account.open, "w2's swap reached the service while w1's voiceover was measured").toBe(1);
    account.letThrough();
    await Promise.all([first, ...beside]);

    expect(charges(w1.engine)).toEqual([{ kind: 'tts', credits: 1, source: 'balance' }]);
    // w2's voiceover went alone on the account in its turn (after w1's and its own swap were answered).
    expect(charges(w2.engine).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'character-swap', credits: 10, source: 'published' },
      { kind: 'tts', credits: 1, source: 'balance' },
    ]);
    expect(1_000 - account.balance).toBe(12);
  });

  it('charge in their ledgers together what the balance fell by, when both send many at once', async () => {
    const account = new Account();
    account.shut = false;
    const space = prefix();
    const w1 = worker(account, 'w1', space);
    const w2 = worker(account, 'w2', space);
    const sends = (w: typeof w1, name: string) => [
      ...Array.from({ length: 8 }, (_, row) => w.engine.submit(voiceover(name, row))),
      w.engine.submit(swap(`${name}-1`)),
      w.engine.submit(swap(`${name}-2`)),
    ];
    await Promise.all([...sends(w1, 'b1'), ...sends(w2, 'b2')]);
    const all = [...charges(w1.engine), ...charges(w2.engine)];
    // Every voiceover measured was measured at its own credit, so the estimates that follow are right too.
    expect(all.filter((c) => c.source === 'balance').map((c) => c.credits)).toEqual([1, 1]);
    expect(all.filter((c) => c.kind === 'tts').map((c) => c.credits)).toEqual(Array(16).fill(1));
    expect(all.reduce((sum, c) => sum + (c.credits ?? 0), 0)).toBe(1_000 - account.balance);
  });

  it("charge a voiceover one adopts from a dead worker as that worker's answer would have", async () => {
    const account = new Account();
    account.shut = false;
    const w2 = worker(account, 'w2', prefix());
    await w2.engine.submit(voiceover('b2', 1));
    // The dead worker's voiceover, made at the service (its intent holds the id): followed, and charged by the guide.
    const taken = await w2.engine.adopt(voiceover('b1', 7), 'made-by-w1');
    expect(taken.status === 'submitted' && [taken.job.chargedCredits, taken.job.chargeSource]).toEqual([1, 'estimate']);
    // Where the dead worker's intent says what it charged (it measured it), that charge stands.
    const sent = { chargedCredits: 1, chargeSource: 'balance' as const };
    const measured = await w2.engine.adopt(voiceover('b1', 8), 'made-by-w1-too', sent);
    expect(measured.status === 'submitted' && [measured.job.chargedCredits, measured.job.chargeSource]).toEqual([
      1,
      'balance',
    ]);
  });

  it('records a create the dead worker was cut off in as of unknown outcome: charged nothing, its estimate kept', async () => {
    const account = new Account();
    account.shut = false;
    const w2 = worker(account, 'w2', prefix());
    const taken = await w2.engine.adopt(swap('b1-9'), null);
    const job = taken.status === 'submitted' ? taken.job : null;
    expect([job?.phase, job?.remoteId, job?.chargedCredits]).toEqual(['outcome-unknown', null, null]);
    expect(job?.error?.explanation).toContain('Another worker of this run');
    // What it may have cost stays beside it: a swap's published price.
    expect(job?.costEstimate?.credits).toBe(10);
  });
});

describe("the account's record of creates", () => {
  it('lets a lease in only once nothing else is on its way, and counts a create entered beside one as a disturbance', async () => {
    const space = prefix();
    let waits = 0;
    const sleep = (ms: number) => ((waits += 1), new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const a = new RedisAccountCreates(client(), { prefix: space, sleep });
    const b = new RedisAccountCreates(client(), { prefix: space, sleep });
    const plain = await a.enter('acct', false);
    expect(plain.aloneAtStart).toBe(true);
    let leased = false;
    const lease = b.enter('acct', true).then((entry) => ((leased = true), entry));
    await until('the lease to wait', () => waits >= 3);
    expect(leased).toBe(false);
    // Nothing enters while the lease waits for the account to go quiet: it is the lease's turn.
    let entered = false;
    const later = a.enter('acct', false).then((entry) => ((entered = true), entry));
    plain.leave();
    const held = await lease;
    expect(held.aloneAtStart).toBe(true);
    const waited = waits;
    await until('the create after the lease to wait', () => waits >= waited + 3);
    expect(entered).toBe(false);
    expect(await held.undisturbed()).toBe(true);
    held.leave();
    const after = await later;
    expect(after.aloneAtStart).toBe(true);
    // A create entered beside one disturbs its measurement.
    const beside = await b.enter('acct', false);
    expect(beside.aloneAtStart).toBe(false);
    expect(await after.undisturbed()).toBe(false);
    after.leave();
    beside.leave();
  });

  it('is not held for ever by a worker that died with the lease in hand and its create on its way', async () => {
    const space = prefix();
    const times = { staleMs: 400, leaseMs: 400, renewMs: 100 };
    const dead = new Redis(redis().url, { maxRetriesPerRequest: null });
    const held = await new RedisAccountCreates(dead, { prefix: space, times }).enter('acct', true);
    expect(held.aloneAtStart).toBe(true);
    // Its process ends: nothing renews what it entered, nothing leaves.
    dead.disconnect();
    const alive = new RedisAccountCreates(client(), { prefix: space, times });
    const lease = await alive.enter('acct', true);
    expect(lease.aloneAtStart).toBe(true);
    lease.leave();
    held.leave();
  });

  it('names no secret in its keys', async () => {
    const space = prefix();
    const account = new Account();
    const w1 = worker(account, 'w1', space);
    account.shut = false;
    await w1.engine.submit(voiceover('b1', 1));
    const keys = await client().keys(`${space}:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toContain('fake-key-123456');
    expect(keys.every((key) => /^[\w-]+:creates:[0-9a-f]{32}:(flight|entered|lease)$/.test(key))).toBe(true);
  });
});
