// What the scale bench reads after a run from the records the processes kept: the workers' ledgers,
// the sandbox's jobs, and the pass-through's counts by path.
import { openLedger } from '../../electron/services/records/open-ledger';
import type { Sandbox } from './jobs.bench';
import { readSandboxRecords } from '../../electron/emulator/state/store';

/** Polls per job and seconds from sent to the end seen, by kind, across the workers' ledgers. */
export function jobsByKind(ledgers: readonly string[]): string {
  const byKind = new Map<string, { jobs: number; polls: number; seconds: number }>();
  for (const job of ledgers.flatMap((dir) => openLedger(dir).loadAll())) {
    const k = byKind.get(job.kind) ?? { jobs: 0, polls: 0, seconds: 0 };
    const seconds = job.finishedAt === null ? 0 : (job.finishedAt - (job.sentAt ?? job.createdAt)) / 1000;
    byKind.set(job.kind, { jobs: k.jobs + 1, polls: k.polls + job.polls, seconds: k.seconds + seconds });
  }
  return [...byKind]
    .map(
      ([kind, k]) =>
        `${kind} ${k.jobs} jobs, ${(k.polls / k.jobs).toFixed(2)} polls and ${(k.seconds / k.jobs).toFixed(1)} s each`,
    )
    .join('; ');
}

export function perRowByPath(counts: readonly Map<string, number>[], rows: number): string {
  const all = new Map<string, number>();
  for (const byPath of counts) for (const [path, n] of byPath) all.set(path, (all.get(path) ?? 0) + n);
  return [...all]
    .sort((a, b) => b[1] - a[1])
    .map(([path, n]) => `${path} ${(n / rows).toFixed(2)}`)
    .join(', ');
}

/** The sandbox's own reasons for the jobs it failed (none are injected here), with how many failed so. */
export function sandboxFailures(sandbox: Sandbox): Map<string, number> {
  const state = readSandboxRecords(sandbox.dataDir).state as {
    jobs: Record<string, { kind: string; status: number; reason?: string }>;
  };
  const reasons = new Map<string, number>();
  for (const job of Object.values(state.jobs)) {
    if (job.status !== 4) continue;
    const reason = `${job.kind}: ${job.reason ?? 'no reason'}`;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  return reasons;
}

/** The sandbox's own record of its callbacks: jobs sent with an address, and how each one's last callback went. */
export interface SandboxCallbacks {
  jobs: number;
  /** Of them, jobs whose last callback (its end) was answered 2xx. */
  delivered: number;
  /** Of them, jobs whose last callback took more than one try. */
  retried: number;
}

export function sandboxCallbacks(sandbox: Sandbox): SandboxCallbacks {
  const state = readSandboxRecords(sandbox.dataDir).state as {
    jobs: Record<string, { webhook?: string; webhookLog?: { attempts: number; delivered: boolean } }>;
  };
  const sent = Object.values(state.jobs).filter((job) => job.webhook);
  return {
    jobs: sent.length,
    delivered: sent.filter((job) => job.webhookLog?.delivered === true).length,
    retried: sent.filter((job) => (job.webhookLog?.attempts ?? 0) > 1).length,
  };
}
