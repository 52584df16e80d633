import { afterEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { dayStart, SpendingPolicy } from '../../../electron/common/jobs/cost-model';
import { JobEngine } from '../../../electron/services/jobs/engine';
import type { LedgerStorage } from '../../../electron/services/jobs/ledger';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import { openLedger } from '../../../electron/services/records/open-ledger';
import type { SqliteLedgerStorage } from '../../../electron/services/records/sqlite-ledger';
import { FakeService, fakeConnections } from '../jobs/fake-service';
import { record, removeTempDirs, tempDir } from './ledger-fixtures';

afterEach(removeTempDirs);

const NOW = Date.UTC(2026, 10, 27, 15, 0, 0);
const HOUR = 3_600_000;

/** A job of connection c1 that ended long ago and was acted on: a start has no reason to hold it. */
function ended(id: string, createdAt: number, extra: Partial<JobRecord> = {}): JobRecord {
  return {
    ...record(id, 'completed', createdAt),
    connectionId: 'c1',
    remoteId: `r-${id}`,
    finishedAt: createdAt + 1_000,
    expiresAt: createdAt + 7 * 24 * HOUR,
    resultUrl: `https://files.example/${id}.mp3`,
    chargedCredits: 10,
    chargeSource: 'service',
    polls: 3,
    reactedAt: createdAt + 2_000,
    ...extra,
  };
}

/** The ledger, with every whole read refused: a start and the engine's reads must say what they need. */
function noWholeReads(storage: LedgerStorage): LedgerStorage {
  return Object.assign(Object.create(storage) as LedgerStorage, {
    loadAll: () => {
      throw new Error('every job was read');
    },
  });
}

function engineOn(storage: LedgerStorage, dailyLimit?: number): JobEngine {
  return new JobEngine({
    storage,
    connections: fakeConnections(new FakeService()),
    clock: { now: () => NOW },
    random: () => 0.5,
    spending: () => SpendingPolicy.parse(dailyLimit === undefined ? {} : { dailyLimits: { c1: dailyLimit } }),
  });
}

const held = (engine: JobEngine) => (engine as unknown as { jobs: Map<string, JobRecord> }).jobs;

describe("the job engine's reads of a large ledger", () => {
  it('starts holding only the jobs it needs, and reads any other by its scope, its run or its id', async () => {
    const dir = tempDir('ledger-reads-');
    const ledger = openLedger(dir);
    const old = Array.from({ length: 2_000 }, (_, i) =>
      ended(`old${i}`, NOW - 30 * 24 * HOUR + i * 1_000, {
        purpose: i % 2 === 0 ? { type: 'batch-row', batchId: 'b1', row: i } : { type: 'plain' },
      } as Partial<JobRecord>),
    );
    const open = [
      { ...record('sending', 'submitting', NOW - HOUR), connectionId: 'c1' },
      { ...ended('polled', NOW - HOUR), phase: 'processing' as const, finishedAt: null, reactedAt: null },
      { ...ended('stalled', NOW - HOUR), phase: 'stalled' as const, finishedAt: null, reactedAt: null },
      ended('not-acted-on', NOW - 40 * 24 * HOUR, { reactedAt: null }),
    ];
    for (const job of [...old, ...open]) void ledger.put(job);
    await ledger.flush();

    const engine = engineOn(noWholeReads(ledger));
    engine.start({ poll: false });
    // The open jobs, the one to act on, and the poll timing's 50 latest finished of the kind.
    expect(held(engine).size).toBe(open.length + 50);
    expect(engine.get('sending').phase).toBe('outcome-unknown');
    // Everything else is still there, read when asked for.
    expect(engine.get('old7').resultUrl).toBe('https://files.example/old7.mp3');
    expect(engine.records(undefined, { runId: 'b1' })).toHaveLength(1_000);
    // One row's, by the run's and row's indexes; the same question of the database, and of a job held.
    expect(engine.records(undefined, { runId: 'b1', row: 8 }).map((j) => j.id)).toEqual(['old8']);
    expect(engine.records(undefined, { runId: 'b1', row: 7 })).toEqual([]);
    expect(ledger.find({ runId: 'b1', row: 8 }).map((j) => j.id)).toEqual(['old8']);
    await engine.markReacted('old10');
    expect(held(engine).has('old10')).toBe(true);
    expect(engine.records(undefined, { runId: 'b1', row: 10 }).map((j) => j.reactedAt)).toEqual([NOW]);
    expect(engine.records(undefined, { runId: 'b1' })).toHaveLength(1_000);
    // The create that never answered is now ended too: both are the reactor's to act on.
    expect(engine.records(undefined, { unreacted: true }).map((j) => j.id)).toEqual(['sending', 'not-acted-on']);
    expect(engine.records(undefined, { resultUrl: 'https://files.example/old8.mp3' }).map((j) => j.id)).toEqual([
      'old8',
    ]);
    // A change to a job read from the ledger is written like any other, and is what it reads next.
    await engine.markReacted('not-acted-on');
    await engine.flush();
    expect(engine.records(undefined, { unreacted: true }).map((j) => j.id)).toEqual(['sending']);
    expect((ledger as SqliteLedgerStorage).find({ ids: ['not-acted-on'] })[0].reactedAt).toBe(NOW);
    ledger.close();
  });

  it("counts today's spending of jobs it does not hold once, also after one of them comes back into memory", async () => {
    const storage = new MemoryLedgerStorage();
    // 30 jobs of 10 credits made earlier today (before the duplicate window a start holds), none open.
    const today = Array.from({ length: 30 }, (_, i) => ended(`t${i}`, dayStart(NOW) + i * 60_000));
    const yesterday = ended('y', dayStart(NOW) - HOUR);
    // Later ones charged nothing: held from the start, as the poll timing's latest finished jobs.
    const free = Array.from({ length: 50 }, (_, i) => ended(`f${i}`, dayStart(NOW) + HOUR + i, { chargedCredits: 0 }));
    for (const job of [...today, yesterday, ...free]) await storage.put(job);
    // Their reaction still owed, so one comes back into memory when it is marked.
    await storage.put({ ...today[3], reactedAt: null });
    const engine = engineOn(noWholeReads(storage), 1_000);
    engine.start({ poll: false });
    expect(held(engine).has('t5')).toBe(false);
    expect(engine.spending.dayRoom('c1')).toBe(1_000 - 300);
    // Read again from the ledger and changed: counted from its record now, not twice.
    await engine.markReacted('t5');
    expect(held(engine).has('t5')).toBe(true);
    expect(engine.spending.dayRoom('c1')).toBe(1_000 - 300);
    // The same as a start that read every job would say.
    expect(engineOnAll(storage).spending.dayRoom('c1')).toBe(1_000 - 300);
  });
});

/** An engine over the same records, all of them in memory from its start (the ledger read whole). */
function engineOnAll(storage: MemoryLedgerStorage): JobEngine {
  const whole: LedgerStorage = Object.assign(Object.create(storage) as LedgerStorage, {
    find: () => storage.loadAll(),
    charges: () => [],
  });
  const engine = engineOn(whole, 1_000);
  engine.start({ poll: false });
  return engine;
}

describe("the ledger's reads of what the engine does not hold", () => {
  // Fails when a query's words drift from its partial index's (SQLite then reads every job).
  it('each use their small partial index, not a scan of every job', () => {
    const dir = tempDir('ledger-plans-');
    const ledger = openLedger(dir) as SqliteLedgerStorage;
    const db = ledger.queryable();
    if (!db) throw new Error('no database');
    const plans: string[] = [];
    const original = db.prepare.bind(db);
    Object.assign(db, {
      prepare: (sql: string) => {
        if (/FROM jobs\b/.test(sql) && !sql.includes('EXPLAIN'))
          plans.push(
            (original(`EXPLAIN QUERY PLAN ${sql}`).all(...sampleParams(sql)) as { detail: string }[])
              .map((r) => r.detail)
              .join('; '),
          );
        return original(sql);
      },
    });
    ledger.find({ unreacted: true });
    ledger.find({ resultUrl: 'https://files.example/x.mp4' });
    ledger.find({ phases: ['completed'], expiresAfter: NOW, expiresBefore: NOW + 86_400_000 });
    // The archive's runs' rows at risk: the cost sums' indexes lead with the purpose (schema step 9).
    const day = { expiresAfter: NOW, expiresBefore: NOW + 86_400_000 };
    ledger.find({ phases: ['completed'], purposeTypes: ['campaign-row', 'batch-row'], ...day });
    ledger.charges(NOW);
    ledger.find({ runId: 'b1', row: 3 });
    expect(plans[0]).toContain('jobs_unreacted');
    expect(plans[1]).toContain('jobs_by_result');
    expect(plans[2]).toContain('jobs_by_expiry');
    expect(plans[3]).toContain('jobs_by_expiry');
    expect(plans.some((p) => p.includes('jobs_charges'))).toBe(true);
    expect(plans.at(-1)).toMatch(/USING (COVERING )?INDEX \w*run/);
    expect(plans.join('\n')).not.toMatch(/SCAN jobs(?! USING)/);
    ledger.close();
  });
});

/** Stand-in values for a statement's `?`s (any value does): EXPLAIN QUERY PLAN needs them bound to answer. */
function sampleParams(sql: string): (string | number)[] {
  return [...sql.matchAll(/\?/g)].map(() => 'x');
}
