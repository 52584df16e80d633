// The processes the records bench times: the web host as `npm run web` launches it (to its address, its
// resident memory), and `studio jobs list` with its peak resident memory, which a process reports on
// exit (a parent cannot read a child's peak once it has gone).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
/** What the web host prints once its records are open (electron/web/cli.ts). */
const READY_LINE = "Avatar Studio's records are open.";
/** A hang guard only: a start that takes in a million jobs takes about a minute here. */
const START_GUARD_MS = 15 * 60_000;

export interface RunningHost {
  child: ChildProcess;
  url: string;
  /** Seconds from the launch to its address printed (the page is served from then on). */
  toAddress: number;
  /** Seconds from the launch to its records open (a first start takes old records in after its address). */
  toReady: number;
  /** The host's lines on stderr (its import's progress among them). */
  said(): string;
}

/** Launches the web host on `dataDir` and waits for its address, then for its records to be open. */
export async function launchHost(dataDir: string): Promise<RunningHost> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'electron/launch/web.mjs'), '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
  let out = '';
  let toAddress = 0;
  const url = await new Promise<string>((resolve, reject) => {
    const guard = setTimeout(
      () => reject(new Error(`records not open after ${START_GUARD_MS / 1000} s: ${said}`)),
      START_GUARD_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Avatar Studio is at (\S+)/.exec(out);
      if (match && !toAddress) toAddress = (performance.now() - started) / 1000;
      if (match && out.includes(READY_LINE)) {
        clearTimeout(guard);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(guard);
      reject(new Error(`the web host exited with ${code}: ${said}`));
    });
  });
  return { child, url, toAddress, toReady: (performance.now() - started) / 1000, said: () => said };
}

/** The process's resident memory now, in MB (Linux's /proc). */
export function residentMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

export async function stopHost(host: RunningHost): Promise<void> {
  if (host.child.exitCode !== null) return;
  const exited = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill('SIGTERM');
  await exited;
}

export interface CliRun {
  seconds: number;
  peakMb: number;
  /** Lines it printed on stdout (JSON Lines: one job each). */
  lines: number;
  code: number | null;
}

/**
 * Runs `studio …` to its end, counting its stdout's lines without keeping them. The command runs in a
 * small wrapper that prints its own peak resident memory on exit (Node's resourceUsage, in kB).
 */
export function runCli(args: readonly string[]): Promise<CliRun> {
  const wrapper = `process.on('exit', () => process.stderr.write('\\npeak-rss-kb ' + process.resourceUsage().maxRSS + '\\n'));
const { runCli } = await import(${JSON.stringify(join(root, 'electron/cli/index.ts'))});
process.exitCode = await runCli(${JSON.stringify(args)});`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', wrapper], {
    cwd: root,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = 0;
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines += 1;
  });
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      const peak = /peak-rss-kb (\d+)/.exec(err);
      resolve({
        seconds: (performance.now() - started) / 1000,
        peakMb: peak ? Number(peak[1]) / 1024 : NaN,
        lines,
        code,
      });
    });
  });
}
