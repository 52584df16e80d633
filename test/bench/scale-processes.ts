// The processes of the scale bench, started as a user would: `studio worker` processes and the studio
// that queues the campaign (`studio campaign run --queue`), each with its own data folder, the sandbox's
// key in its environment, and what it prints kept for when it fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..');

export interface StudioProcess {
  child: ChildProcess;
  /** Everything it wrote to stderr so far (its progress and its problems). */
  said(): string;
  /** Settles with its exit code (a signal counts as -1), what it wrote to stdout, and when (performance.now()). */
  exited: Promise<{ code: number; out: string; at: number }>;
}

/**
 * SCALE_PROFILE=DIR: node's flags that write a process's CPU profile into DIR when it exits (open it in
 * Chromium's DevTools), for every studio process and the sandbox: where a row's CPU goes is what bounds
 * several workers on one machine.
 */
export function profileArgs(): string[] {
  return process.env.SCALE_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.SCALE_PROFILE] : [];
}

/**
 * `studio ARGS` from the repository's root, as a user runs it (the package's bin, which starts a worker
 * on glibc again with its allocator's settings).
 */
function studio(args: readonly string[], apiKey: string, env: Record<string, string> = {}): StudioProcess {
  const child = spawn(process.execPath, [...profileArgs(), join(repoRoot, 'electron/cli/bin.mjs'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, STUDIO_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number; out: string; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code: code ?? -1, out, at: performance.now() })),
  );
  return { child, said: () => err, exited };
}

export interface WorkerPlace {
  name: string;
  queue: string;
  baseUrl: string;
  apiKey: string;
  dataDir: string;
  out: string;
  /** Rows the worker makes at once; left out, the worker's own default. */
  concurrency?: number;
  /** The account's requests a second, shared by every worker (`--rate`); left out, each learns its pace. */
  rate?: number;
  /**
   * Callbacks instead of polling: `--callback-url URL` and a receiver on loopback at a port of the
   * system's choice, opening callbacks with the client credentials (given in the environment, as an
   * operator gives them).
   */
  callbacks?: { url: string; clientId: string; clientSecret: string };
}

export interface StartedWorker extends StudioProcess {
  /** The port its callback receiver listens on (null without callbacks). */
  receiverPort: number | null;
}

/** The port in the worker's line "Worker w1: callbacks to … are received on 127.0.0.1:PORT; …". */
const RECEIVER_LINE = /callbacks to \S+ are received on [^\s;]+:(\d+);/;

/** A `studio worker`; settles once it says it takes rows (and, with callbacks, where it receives them). */
export async function startWorker(place: WorkerPlace): Promise<StartedWorker> {
  const worker = studio(
    [
      ...['worker', '--queue', place.queue, '--name', place.name, '--base-url', place.baseUrl],
      ...['--data-dir', place.dataDir, '--out', place.out],
      ...(place.concurrency === undefined ? [] : ['--concurrency', String(place.concurrency)]),
      ...(place.rate === undefined ? [] : ['--rate', String(place.rate)]),
      ...(place.callbacks ? ['--callback-url', place.callbacks.url, '--callback-listen', '127.0.0.1:0'] : []),
    ],
    place.apiKey,
    place.callbacks
      ? { STUDIO_CLIENT_ID: place.callbacks.clientId, STUDIO_CLIENT_SECRET: place.callbacks.clientSecret }
      : {},
  );
  let receiverPort: number | null = null;
  await new Promise<void>((resolve, reject) => {
    const listen = () => {
      if (!worker.said().includes('takes rows from')) return;
      if (place.callbacks) {
        const port = RECEIVER_LINE.exec(worker.said())?.[1];
        if (port === undefined) return;
        receiverPort = Number(port);
      }
      worker.child.stderr?.off('data', listen);
      resolve();
    };
    worker.child.stderr?.on('data', listen);
    void worker.exited.then(({ code }) =>
      reject(new Error(`the worker ${place.name} exited (${code}) before taking rows: ${worker.said()}`)),
    );
  });
  return { ...worker, receiverPort };
}

export interface CampaignPlace {
  template: string;
  sheet: string;
  out: string;
  queue: string;
  baseUrl: string;
  apiKey: string;
  dataDir: string;
}

/** `studio campaign run TEMPLATE SHEET --queue URL --yes --json`: queues every row and follows them to the end. */
export function runCampaign(place: CampaignPlace): StudioProcess {
  return studio(
    [
      ...['campaign', 'run', place.template, place.sheet, '--out', place.out, '--queue', place.queue],
      ...['--base-url', place.baseUrl, '--data-dir', place.dataDir, '--yes', '--json'],
    ],
    place.apiKey,
  );
}

/** Stops a worker as an operator would (SIGTERM: the rows under way end first) and waits for it. */
export async function stopProcess(process: StudioProcess): Promise<void> {
  if (process.child.exitCode !== null || process.child.signalCode !== null) return;
  process.child.kill('SIGTERM');
  await process.exited;
}

/** A process's resident memory in MB, as the kernel counts it (VmRSS), or null once it has gone. */
export function residentMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/**
 * A worker's processes: the one started and, on glibc, the child it runs its rows in (started again with
 * the allocator's settings, electron/cli/worker-process.mjs). Its memory and CPU are both theirs.
 */
export function workerProcesses(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return [pid, ...children.map(Number).filter((c) => readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('worker'))];
  } catch {
    return [pid];
  }
}

/** A worker's resident memory in MB, its child's included, or null once it has gone. */
export function workerResidentMb(pid: number | undefined): number | null {
  const each = workerProcesses(pid).map(residentMb);
  return each.length === 0 || each[0] === null ? null : each.reduce<number>((all, mb) => all + (mb ?? 0), 0);
}

/** A worker's CPU time so far, its child's included (cpuSeconds), or null once it has gone. */
export function workerCpuSeconds(pid: number | undefined): { own: number; children: number } | null {
  const each = workerProcesses(pid).map(cpuSeconds);
  if (each.length === 0 || each[0] === null) return null;
  return each.reduce<{ own: number; children: number }>(
    (all, cpu) => ({ own: all.own + (cpu?.own ?? 0), children: all.children + (cpu?.children ?? 0) }),
    { own: 0, children: 0 },
  );
}

/** Clock ticks a second in /proc/PID/stat (100 on Linux on x86 and arm). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time a process has used so far, in seconds: its own (user and system) and that of the children it
 * has waited for (ffprobe and ffmpeg), or null once it has gone.
 */
export function cpuSeconds(pid: number | undefined): { own: number; children: number } | null {
  if (pid === undefined) return null;
  try {
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return {
      own: (fields[11] + fields[12]) / TICKS_PER_SECOND,
      children: (fields[13] + fields[14]) / TICKS_PER_SECOND,
    };
  } catch {
    return null;
  }
}
