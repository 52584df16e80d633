import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobEngine, RESULT_LIFETIME_MS, type JobEngineDeps } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import type { JobView } from '../../../electron/common/bridge/jobs';
import { FakeService, fakeConnections, tts } from './fake-service';
import { socketError } from '../client/fake-fetch';

let service: FakeService;
let storage: MemoryLedgerStorage;
let notes: string[];
let progress: (number | null)[];
let changes: JobView[];

function engine(extra: Partial<JobEngineDeps> = {}): JobEngine {
  return new JobEngine({
    storage,
    connections: fakeConnections(service),
    clock: { now: () => Date.now() },
    random: () => 0.5,
    notify: (title, body) => notes.push(`${title}: ${body}`),
    setProgress: (f) => progress.push(f),
    onChange: (job) => changes.push(job),
    ...extra,
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  service = new FakeService();
  storage = new MemoryLedgerStorage();
  notes = [];
  progress = [];
  changes = [];
});
afterEach(() => vi.useRealTimers());

describe('submit', () => {
  it('writes the ledger before the create is sent, then follows the job to completion', async () => {
    const seenAtCreate: string[] = [];
    service.onRequest = (path) => {
      if (path === '/api/open/v3/audio/create') seenAtCreate.push(...[...storage.records.values()].map((r) => r.phase));
    };
    const e = engine();
    e.start();
    const result = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts, projectId: 'p1' });
    expect(seenAtCreate).toEqual(['submitting']);
    if (result.status !== 'submitted') throw new Error('expected a submitted job');
    const job = result.job;
    expect(job).toMatchObject({ phase: 'queued', remoteId: 'r1', projectId: 'p1', connectionName: 'Fake' });
    expect(job.expiresAt).toBe(Date.now() + RESULT_LIFETIME_MS);
    expect(job.summary).toContain('Hello from the studio');

    service.set('r1', 2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(e.get(job.id).phase).toBe('processing');
    service.set('r1', 3);
    await vi.advanceTimersByTimeAsync(5_000);
    const done = e.get(job.id);
    expect(done).toMatchObject({ phase: 'completed', resultUrl: 'https://files.test/r1.mp3', progress: 1 });
    expect(storage.records.get(job.id)?.phase).toBe('completed');
    expect(notes).toEqual(['Speech ready: ' + job.summary]);
    expect(progress.at(-1)).toBeNull();
    expect(progress.some((p) => p !== null && p > 0 && p < 1)).toBe(true);
    // No polling after the end.
    const polls = service.count('/api/open/v3/audio/infobymodelid');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(service.count('/api/open/v3/audio/infobymodelid')).toBe(polls);
  });

  it('marks a create whose connection dropped as outcome unknown and never sends it again', async () => {
    service.injected.push({ path: '/api/open/v3/audio/create', reply: () => socketError('ECONNRESET') });
    const e = engine();
    e.start();
    const result = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    if (result.status !== 'submitted') throw new Error('expected submitted');
    expect(result.job.phase).toBe('outcome-unknown');
    expect(result.job.error?.explanation).toMatch(/dashboard/);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(service.count('/api/open/v3/audio/create')).toBe(1);
    expect(() => e.refresh(result.job.id)).toThrow(/never received its id/);
  });

  it('marks a refused create as failed with the explanation of its code', async () => {
    service.injected.push({
      path: '/api/open/v3/audio/create',
      reply: () => Response.json({ code: 1104, msg: 'no credit' }),
    });
    const e = engine();
    const result = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    if (result.status !== 'submitted') throw new Error('expected submitted');
    expect(result.job).toMatchObject({ phase: 'failed', error: { code: 1104 } });
    expect(result.job.error?.explanation).toMatch(/credits/);
    expect(service.count('/api/open/v3/audio/create')).toBe(1);
  });

  it('keeps following a job the service accepted when its record cannot be written, and says so without inviting a resend', async () => {
    // The first write (before the create) lands; the second (the service's id) and the next retry fail.
    class FailingLedger extends MemoryLedgerStorage {
      override async put(record: Parameters<MemoryLedgerStorage['put']>[0]): Promise<void> {
        if (this.writes === 1 || this.writes === 2) {
          this.writes += 1;
          throw new Error('ENOSPC: no space left on device');
        }
        return super.put(record);
      }
    }
    storage = new FailingLedger();
    const warnings: string[] = [];
    const e = engine({ warn: (title, body) => warnings.push(`${title}: ${body}`) });
    e.start();
    const result = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    if (result.status !== 'submitted') throw new Error('expected submitted');
    expect(result.job).toMatchObject({ phase: 'queued', remoteId: 'r1', error: null });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not write it to the job list.*Do not send it again/);
    expect(warnings[0]).not.toMatch(/send the request again/);

    // Still followed: its end is seen, and the retried write puts the job (with its id) on disk.
    service.set('r1', 3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(e.get(result.job.id).phase).toBe('completed');
    expect(storage.records.get(result.job.id)).toMatchObject({ phase: 'completed', remoteId: 'r1' });
    expect(service.count('/api/open/v3/audio/create')).toBe(1);
    expect(warnings).toHaveLength(1);
  });

  it('retries a record the service knows until it is on disk, even when nothing else changes', async () => {
    let failing = 2;
    class FlakyLedger extends MemoryLedgerStorage {
      override async put(record: Parameters<MemoryLedgerStorage['put']>[0]): Promise<void> {
        if (this.writes >= 1 && failing > 0) {
          failing -= 1;
          this.writes += 1;
          throw new Error('EIO: i/o error');
        }
        return super.put(record);
      }
    }
    storage = new FlakyLedger();
    const e = engine({ warn: () => undefined });
    e.start();
    const result = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    if (result.status !== 'submitted') throw new Error('expected submitted');
    expect(storage.records.get(result.job.id)?.remoteId).toBeNull();
    // Two failures: retries after 1 s and 2 s; the job stays queued, so only the retry writes.
    await vi.advanceTimersByTimeAsync(3_500);
    expect(storage.records.get(result.job.id)).toMatchObject({ remoteId: 'r1', phase: 'queued' });
  });

  it('refuses an invalid body before writing or sending anything', async () => {
    const e = engine();
    await expect(
      e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: { voice_id: 'v' } as never }),
    ).rejects.toThrow(/input_text/);
    expect(storage.writes).toBe(0);
    expect(service.requests).toHaveLength(0);
  });

  it('asks before sending the same request again, unless confirmed or the earlier one failed', async () => {
    const e = engine();
    const first = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    const again = await e.submit({
      confirmation: { by: 'script' },
      kind: 'tts',
      body: { rate: '50%', voice_id: 'voice-1', input_text: 'Hello from the studio' },
    });
    expect(again.status).toBe('duplicate');
    if (again.status !== 'duplicate' || first.status !== 'submitted') throw new Error('unexpected');
    expect(again.existing.id).toBe(first.job.id);
    expect(again.message).toMatch(/second paid job/);
    expect(service.count('/api/open/v3/audio/create')).toBe(1);
    const confirmed = await e.submit({
      confirmation: { by: 'script' },
      kind: 'tts',
      body: tts,
      confirmDuplicate: true,
    });
    expect(confirmed.status).toBe('submitted');
    expect(service.count('/api/open/v3/audio/create')).toBe(2);
    // After the window, no question.
    await vi.advanceTimersByTimeAsync(11 * 60_000);
    expect((await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts })).status).toBe('submitted');
  });

  it('passes the connection webhook with every create (webhookurl for character swap)', async () => {
    const e = engine({ connections: fakeConnections(service, 'https://hooks.test/in') });
    await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    await e.submit({
      confirmation: { by: 'script' },
      kind: 'character-swap',
      body: { image: 'https://x.test/a.png', video: 'https://x.test/b.mp4', duration: 12, resolution: '720p' },
    });
    expect(service.requests[0].body).toMatchObject({ webhookUrl: 'https://hooks.test/in' });
    expect(service.requests[1].body).toMatchObject({ webhookurl: 'https://hooks.test/in' });
    const swap = e.list().find((j) => j.kind === 'character-swap');
    expect(swap?.costEstimate).toEqual({ credits: 30, basis: '12 s at 720p: 3 × 10 credits per started 5 s' });
  });

  it('reports a job the service failed with its reason', async () => {
    const e = engine();
    const result = await e.submit({
      confirmation: { by: 'script' },
      kind: 'lipsync',
      body: { video_url: 'https://x.test/v.mp4', audio_url: 'https://x.test/a.mp3' },
    });
    if (result.status !== 'submitted') throw new Error('expected submitted');
    service.set('r1', 4);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(e.get(result.job.id)).toMatchObject({ phase: 'failed', error: { message: 'face not found' } });
    expect(notes[0]).toMatch(/^Lip sync failed: The service could not finish this job: face not found/);
  });
});

describe('charges', () => {
  it('a job the service fails is charged nothing: the fall measured at its create is not kept (it was refunded)', async () => {
    let balance = 1_000;
    service.onRequest = (path) => {
      if (path === '/api/open/v3/audio/create') balance -= 3;
    };
    const e = engine({ balance: async () => balance });
    e.start();
    const first = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    const second = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: { ...tts, input_text: 'Two' } });
    if (first.status !== 'submitted' || second.status !== 'submitted') throw new Error('expected submitted jobs');
    // Each went alone (made by hand, nothing else on its way), measured from the balance.
    expect([first.job.id, second.job.id].map((id) => e.record(id).chargedCredits)).toEqual([3, 3]);
    service.set('r1', 3);
    service.set('r2', 4);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(e.record(first.job.id)).toMatchObject({ phase: 'completed', chargedCredits: 3, chargeSource: 'balance' });
    expect(e.record(second.job.id)).toMatchObject({ phase: 'failed', chargedCredits: 0, chargeSource: 'service' });
    // The refund is no guide to the price: the next one is judged by the charge of the one that completed.
    const next = await e.price('tts', tts, e.record(first.job.id).connectionId);
    expect(next).toMatchObject({ published: false, recent: { count: 1, credits: 3 } });
  });
});

describe('learning', () => {
  it('stops asking about new jobs long before similar jobs usually end', async () => {
    const e = engine();
    e.start();
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const r = await e.submit({
        confirmation: { by: 'script' },
        kind: 'tts',
        body: { ...tts, input_text: `sentence ${i}` },
      });
      if (r.status === 'submitted') ids.push(r.job.remoteId as string);
    }
    await vi.advanceTimersByTimeAsync(60_000);
    for (const id of ids) service.set(id, 3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(e.list().filter((j) => j.phase === 'completed')).toHaveLength(6);

    const before = service.count('/api/open/v3/audio/infobymodelid');
    const next = await e.submit({
      confirmation: { by: 'script' },
      kind: 'tts',
      body: { ...tts, input_text: 'a seventh' },
    });
    await vi.advanceTimersByTimeAsync(45_000);
    // Six jobs took at least 60 s, so the seventh is not polled in its first 45 s.
    expect(service.count('/api/open/v3/audio/infobymodelid')).toBe(before);
    service.set(next.status === 'submitted' ? (next.job.remoteId as string) : '', 3);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(e.list()[0].phase).toBe('completed');
  });
});

describe('cohorts', () => {
  it('follows a burst of similar jobs through two scouts: few requests, and every end seen within a second', async () => {
    const e = engine();
    e.start();
    const started = Date.now();
    const remote: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      const r = await e.submit({
        confirmation: { by: 'script' },
        kind: 'tts',
        body: { ...tts, input_text: `line ${i}` },
      });
      if (r.status === 'submitted') remote.push(r.job.remoteId as string);
      await vi.advanceTimersByTimeAsync(50);
    }
    // Every job ends 20 s after it was created, as a busy service's queue of equal jobs does.
    const endsAt = (i: number) => started + i * 50 + 20_000;
    const seen = new Map<string, number>();
    e.subscribe((job) => {
      if (job.phase === 'completed' && job.remoteId) seen.set(job.remoteId, Date.now());
    });
    for (let t = 0; t < 30_000; t += 100) {
      remote.forEach((id, i) => {
        if (Date.now() >= endsAt(i) && service.jobs.get(id)?.status !== 3) service.set(id, 3);
      });
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(seen.size).toBe(40);
    const delays = remote.map((id, i) => (seen.get(id) as number) - endsAt(i));
    expect(Math.max(...delays)).toBeLessThanOrEqual(1_500);
    const polls = service.count('/api/open/v3/audio/infobymodelid');
    // A fixed 2 s poller asks 10 times per job, the plain backoff about 7; here two scouts ask every
    // half second (2 per job of these 40) and the rest once or twice (twice when woken at once on
    // waking late, a little before their end: that trade finds the ends of a big burst a second sooner).
    expect(polls / 40).toBeLessThan(5);
  });
});

describe('restart', () => {
  it('turns an interrupted submit into outcome unknown and resumes polling active jobs', async () => {
    const first = engine();
    const submitted = await first.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    if (submitted.status !== 'submitted') throw new Error('expected submitted');
    first.stop();
    // A record as a crash between the ledger write and the create's answer leaves it.
    storage.put({
      ...first.record(submitted.job.id),
      id: 'crashed',
      phase: 'submitting',
      remoteId: null,
      requestHash: 'other',
    });

    const second = engine();
    second.start();
    expect(second.get('crashed').phase).toBe('outcome-unknown');
    service.set('r1', 3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(second.get(submitted.job.id).phase).toBe('completed');
    expect(service.count('/api/open/v3/audio/create')).toBe(1);
  });

  it('stalls a job past its deadline and resumes it on request', async () => {
    const e = engine({ deadlineMs: 30_000 });
    const result = await e.submit({ confirmation: { by: 'script' }, kind: 'tts', body: tts });
    if (result.status !== 'submitted') throw new Error('expected submitted');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(e.get(result.job.id).phase).toBe('stalled');
    const polls = service.count('/api/open/v3/audio/infobymodelid');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(service.count('/api/open/v3/audio/infobymodelid')).toBe(polls);
    service.set('r1', 3);
    e.refresh(result.job.id);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(e.get(result.job.id).phase).toBe('completed');
  });
});
