// Following a queued campaign of the scale bench while it runs: how many rows the workers have ended
// (what each says of itself in Redis), and the workers' and Redis's memory the first time that count passes a
// mark. A sampling loop, not a verdict: the run ends when the campaign command exits.
import type { Redis } from 'ioredis';
import { cpuSeconds, workerCpuSeconds, workerResidentMb, type StudioProcess } from './scale-processes';

/** Memory when the rows ended first reached `rows`: each worker's RSS (MB) and Redis's used_memory (bytes). */
export interface Sample {
  rows: number;
  workerRss: number[];
  redis: number;
}

/** The workers' RSS together (MB) when the rows ended passed `rows`: one point of the growth's fitted line. */
export interface RssPoint {
  rows: number;
  rss: number;
}

/**
 * How many RSS points a run takes (one each time the rows ended pass another such share of the run). One
 * reading swings by a hundred MB with where the collector is in its cycle, so growth is a line fitted
 * through many points, not the difference of two.
 */
const RSS_POINTS = 200;
/** How often the workers' facts are read: a sample's row count is at most this late. */
const SAMPLE_MS = 250;
/** A hang guard only: a run slower than this per row has stopped, not slowed down. */
const GUARD_SECONDS_PER_ROW = 5;

export async function redisMemory(redis: Redis): Promise<{ used: number; peak: number }> {
  const info = await redis.info('memory');
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return { used: field('used_memory'), peak: field('used_memory_peak') };
}

/** Rows the workers have ended (made, failed or not run), as each says of itself (RunShelf.tell). */
async function rowsEnded(redis: Redis, names: readonly string[]): Promise<number> {
  const said = await redis.hmget('studio:workers', ...names);
  return said.reduce((sum, facts) => sum + (facts === null ? 0 : (JSON.parse(facts) as { done: number }).done), 0);
}

export interface Following {
  records: Redis;
  names: readonly string[];
  pids: readonly (number | undefined)[];
  workers: readonly StudioProcess[];
  campaign: StudioProcess;
  sandboxPid: number | undefined;
  rows: number;
  earlyRows: number;
}

export type Cpu = { own: number; children: number };

/** CPU seconds each process had used when last seen alive. */
export interface CpuUsed {
  workers: Cpu[];
  studio: Cpu;
  sandbox: Cpu;
}

/**
 * Samples memory at `earlyRows` and at `rows` ended, and the processes' CPU time, until the campaign
 * command exits. `earlyCpu` is the CPU used when the early mark was passed: what came after it is the
 * run's steady part, each worker's start and first rows (its code compiled as it first runs) left out.
 */
export async function followRun(f: Following): Promise<{
  early: Sample | null;
  end: Sample | null;
  cpu: CpuUsed;
  earlyCpu: CpuUsed | null;
  rssPoints: RssPoint[];
}> {
  const none = { own: 0, children: 0 };
  const cpu: CpuUsed = { workers: f.pids.map(() => none), studio: none, sandbox: none };
  const readCpu = () => {
    f.pids.forEach((pid, i) => (cpu.workers[i] = workerCpuSeconds(pid) ?? cpu.workers[i]));
    cpu.studio = cpuSeconds(f.campaign.child.pid) ?? cpu.studio;
    cpu.sandbox = cpuSeconds(f.sandboxPid) ?? cpu.sandbox;
  };
  const rssPoints: RssPoint[] = [];
  const rowsPerPoint = Math.max(1, Math.floor(f.rows / RSS_POINTS));
  let early: Sample | null = null;
  let earlyCpu: CpuUsed | null = null;
  let end: Sample | null = null;
  let exited = false;
  void f.campaign.exited.then(() => (exited = true));
  const guardAt = performance.now() + (600 + f.rows * GUARD_SECONDS_PER_ROW) * 1000;
  const sample = async (rows: number): Promise<Sample> => ({
    rows,
    workerRss: f.pids.map((pid) => workerResidentMb(pid) ?? Number.NaN),
    redis: (await redisMemory(f.records)).used,
  });
  while (!exited) {
    const gone = f.workers.findIndex((w) => w.child.exitCode !== null || w.child.signalCode !== null);
    if (gone !== -1) throw new Error(`the worker ${f.names[gone]} exited mid-run: ${f.workers[gone].said()}`);
    if (performance.now() > guardAt) throw new Error(`the campaign did not end: ${f.campaign.said().slice(-2000)}`);
    readCpu();
    const ended = await rowsEnded(f.records, f.names);
    if (!early && ended >= f.earlyRows) {
      early = await sample(ended);
      earlyCpu = { ...cpu, workers: [...cpu.workers] };
    }
    if (!end && ended >= f.rows) end = await sample(ended);
    if (ended >= (rssPoints.length + 1) * rowsPerPoint && rssPoints.length < RSS_POINTS) {
      const each = f.pids.map((pid) => workerResidentMb(pid) ?? Number.NaN);
      rssPoints.push({ rows: ended, rss: each.reduce((a, b) => a + b, 0) });
    }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, SAMPLE_MS)), f.campaign.exited]);
  }
  return { early, end, cpu, earlyCpu, rssPoints };
}

/**
 * RSS growth per row (kB), the least-squares slope through the readings: one reading lands anywhere in
 * the collector's cycle (a worker's RSS swings by a hundred MB between major collections), so the two
 * marks alone can show growth, or a fall, that is only where each landed. Null with under 10 readings.
 */
export function growthPerRow(points: readonly RssPoint[]): { kb: number; points: number } | null {
  const valid = points.filter((p) => Number.isFinite(p.rss));
  if (valid.length < 10) return null;
  const meanRows = valid.reduce((a, p) => a + p.rows, 0) / valid.length;
  const meanRss = valid.reduce((a, p) => a + p.rss, 0) / valid.length;
  let across = 0;
  let spread = 0;
  for (const p of valid) {
    across += (p.rows - meanRows) * (p.rss - meanRss);
    spread += (p.rows - meanRows) ** 2;
  }
  return spread === 0 ? null : { kb: (across / spread) * 1024, points: valid.length };
}
