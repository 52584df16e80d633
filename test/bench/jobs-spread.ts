// Job polling with job lengths spread as the real service's are (seconds to minutes), in virtual time:
// the engine runs on a fake clock and fake timers against an in-memory service, so two hours of jobs
// take seconds and every run with the same seed asks the same questions. Compares the plain strategy
// (the scheduler's backoff alone, the baseline) with the learnt one (JobTiming): requests per job and
// the delay between a job's end and the engine noticing it.
import type { Sleep } from '../../electron/services/client/backoff';
import { JobEngine } from '../../electron/services/jobs/engine';
import { JobTiming } from '../../electron/services/jobs/job-timing';
import { MemoryLedgerStorage } from '../../electron/services/jobs/ledger';
import { PlainPolling, type PollingStrategy } from '../../electron/services/jobs/polling-strategy';
import type { Timers } from '../../electron/services/jobs/scheduler';
import { RecordStatus } from '../../electron/common/api';
import { FakeService, fakeConnections } from '../unit/jobs/fake-service';
import { seededRandom as seeded } from '../seeded-random';

const SEED = Number(process.env.BENCH_SEED ?? 7);
const JOBS = Number(process.env.BENCH_SPREAD_JOBS ?? 400);
const SHORTEST_S = 5;
const LONGEST_S = 600;
const START = Date.parse('2026-01-01T09:00:00Z');

interface Planned {
  at: number;
  lengthMs: number;
  text: string;
}

/**
 * When each job is sent and how long the service takes: lengths log-uniform from 5 s to 10 min, the
 * script's length following the job's length loosely (a longer script takes longer, give or take
 * half), sent one by one (about every 20 s) or in bursts of 20 (a batch voiceover).
 */
function plan(random: () => number): Planned[] {
  const jobs: Planned[] = [];
  let at = START;
  while (jobs.length < JOBS) {
    at += -Math.log(1 - random()) * 20_000;
    const burst = random() < 0.05 ? 20 : 1;
    for (let i = 0; i < burst && jobs.length < JOBS; i += 1) {
      const lengthMs = 1000 * SHORTEST_S * (LONGEST_S / SHORTEST_S) ** random();
      const words = Math.max(1, Math.round((lengthMs / 1000) * 2.5 * (0.6 + random())));
      jobs.push({ at, lengthMs, text: Array.from({ length: words }, (_, w) => `word${w % 50}`).join(' ') });
    }
  }
  return jobs;
}

interface Timer {
  at: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

/** A clock and timers that move only when asked; between two timers every pending promise settles. */
class VirtualTime {
  now = START;
  private seq = 0;
  private readonly queue: Timer[] = [];
  readonly clock = { now: () => this.now };
  readonly timers: Timers = {
    setTimeout: (run, ms) => {
      const timer: Timer = { at: this.now + Math.max(0, ms), seq: this.seq++, run, cancelled: false };
      this.queue.push(timer);
      return timer;
    },
    clearTimeout: (handle) => {
      if (handle) (handle as Timer).cancelled = true;
    },
  };
  readonly sleep: Sleep = (ms) => new Promise((resolve) => this.timers.setTimeout(() => resolve(), ms));

  async runUntil(done: () => boolean, settled: () => boolean): Promise<void> {
    for (;;) {
      await this.settle(settled);
      if (done()) return;
      let next = -1;
      for (let i = 0; i < this.queue.length; i += 1) {
        const t = this.queue[i];
        if (t.cancelled) continue;
        if (next < 0 || t.at < this.queue[next].at || (t.at === this.queue[next].at && t.seq < this.queue[next].seq))
          next = i;
      }
      if (next < 0) throw new Error('virtual time ran out of timers before the jobs ended');
      const [timer] = this.queue.splice(next, 1);
      for (let i = this.queue.length - 1; i >= 0; i -= 1) if (this.queue[i].cancelled) this.queue.splice(i, 1);
      this.now = Math.max(this.now, timer.at);
      timer.run();
    }
  }

  private async settle(settled: () => boolean): Promise<void> {
    for (let turn = 0; turn < 3 || !settled(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface SpreadResult {
  label: string;
  requestsPerJob: number;
  p50Ms: number;
  p95Ms: number;
  jobs: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function follow(label: string, polling: PollingStrategy, jobs: Planned[]): Promise<SpreadResult> {
  const time = new VirtualTime();
  const service = new FakeService(time.clock.now);
  const endsAt = new Map<string, number>();
  const delays: number[] = [];
  let pending = 0;
  const engine = new JobEngine({
    storage: new MemoryLedgerStorage(),
    connections: fakeConnections(service, null, { clock: time.clock, sleep: time.sleep }),
    clock: time.clock,
    timers: time.timers,
    random: seeded(SEED + 1),
    polling,
  });
  engine.subscribe((job) => {
    const end = job.remoteId ? endsAt.get(job.remoteId) : undefined;
    if (end === undefined || job.phase !== 'completed') return;
    delays.push(time.now - end);
    endsAt.delete(job.remoteId as string);
  });
  engine.start();
  for (const job of jobs) {
    time.timers.setTimeout(() => {
      pending += 1;
      void engine
        .submit({
          confirmation: { by: 'script' },
          kind: 'tts',
          body: { input_text: job.text, voice_id: 'voice-1', rate: '50%' },
          confirmDuplicate: true,
        })
        .then((result) => {
          pending -= 1;
          const remoteId = result.status === 'submitted' ? result.job.remoteId : null;
          if (!remoteId) throw new Error(`${label}: a create failed`);
          const sent = time.now;
          endsAt.set(remoteId, sent + job.lengthMs);
          time.timers.setTimeout(() => service.set(remoteId, RecordStatus.Processing), job.lengthMs / 4);
          time.timers.setTimeout(() => service.set(remoteId, RecordStatus.Completed), job.lengthMs);
        });
    }, job.at - time.now);
  }
  await time.runUntil(
    () => delays.length === jobs.length,
    () => pending === 0 && service.inFlight === 0,
  );
  engine.stop();
  delays.sort((a, b) => a - b);
  const polls = service.count('/api/open/v3/audio/infobymodelid');
  return {
    label,
    requestsPerJob: polls / jobs.length,
    p50Ms: quantile(delays, 0.5),
    p95Ms: quantile(delays, 0.95),
    jobs: delays.length,
  };
}

/** Both strategies on the same planned jobs; the plain one is the baseline the ratios are taken against. */
export async function runSpread(): Promise<{ plain: SpreadResult; learnt: SpreadResult }> {
  const jobs = plan(seeded(SEED));
  const plain = await follow('plain', new PlainPolling(), jobs);
  const learnt = await follow('learnt', new JobTiming(), jobs);
  const row = (r: SpreadResult) =>
    `${r.label.padEnd(8)} ${r.requestsPerJob.toFixed(2).padStart(12)} ${(r.p50Ms / 1000).toFixed(2).padStart(9)} s ${(r.p95Ms / 1000).toFixed(2).padStart(9)} s ${String(r.jobs).padStart(6)}`;
  console.log(
    `${JOBS} TTS jobs of ${SHORTEST_S} s to ${LONGEST_S / 60} min (log-uniform; script length follows job length), sent singly and in bursts over ${((jobs.at(-1)!.at - START) / 3_600_000).toFixed(1)} h of virtual time, seed ${SEED}`,
  );
  console.log(
    `${'strategy'.padEnd(8)} ${'requests/job'.padStart(12)} ${'p50 delay'.padStart(11)} ${'p95 delay'.padStart(11)} ${'jobs'.padStart(6)}`,
  );
  console.log(row(plain));
  console.log(row(learnt));
  console.log(
    `ratios learnt / plain: requests per job ${(learnt.requestsPerJob / plain.requestsPerJob).toFixed(2)}, p50 delay ${(learnt.p50Ms / plain.p50Ms).toFixed(2)}, p95 delay ${(learnt.p95Ms / plain.p95Ms).toFixed(2)}`,
  );
  return { plain, learnt };
}
