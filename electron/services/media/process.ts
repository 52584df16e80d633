import { spawn as nodeSpawn } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';

/** The part of a child process the runner uses; node's ChildProcess fits, and so do test fakes. */
export interface ChildLike {
  readonly pid?: number;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
}

export type SpawnFn = (file: string, args: string[], options: { stdio: ['ignore', 'pipe', 'pipe'] }) => ChildLike;

export interface RunOptions {
  signal?: AbortSignal;
  /** Called with each complete stdout line (ffmpeg's -progress pipe:1 output). */
  onStdoutLine?: (line: string) => void;
  /** Background work (proxies made ahead of a preview): the process yields the CPU to everything else. */
  lowPriority?: boolean;
}

/** The niceness of background work: low enough that the page, a preview or a download goes first. */
const BACKGROUND_NICENESS = 15;

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last 64 KiB of stderr: enough for ffmpeg's final error lines. */
  stderr: string;
  aborted: boolean;
}

const STDERR_CAP = 64 * 1024;
const STDOUT_CAP = 16 * 1024 * 1024;
/** ffmpeg gets this long to exit on SIGTERM before it is killed outright. */
const KILL_GRACE_MS = 1500;

/**
 * Starts ffmpeg/ffprobe and keeps track of every process it started, so that cancel kills one and
 * `killAll` (app quit) kills every one still running. One runner per host, passed to each service.
 */
export class ProcessRunner {
  private readonly live = new Set<ChildLike>();

  constructor(private readonly spawn: SpawnFn = nodeSpawn as unknown as SpawnFn) {}

  get running(): number {
    return this.live.size;
  }

  run(file: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) {
        resolve({ code: null, signal: null, stdout: '', stderr: '', aborted: true });
        return;
      }
      let child: ChildLike;
      try {
        child = this.spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (error) {
        reject(error);
        return;
      }
      this.live.add(child);
      if (options.lowPriority && child.pid !== undefined) {
        try {
          setPriority(child.pid, BACKGROUND_NICENESS);
        } catch {
          // Not allowed here (some sandboxes): it runs at normal priority, which is only slower for others.
        }
      }
      let stdout = '';
      let stderr = '';
      let pending = '';
      let aborted = false;

      child.stdout?.setEncoding('utf8');
      child.stderr?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        if (stdout.length < STDOUT_CAP) stdout += chunk;
        if (!options.onStdoutLine) return;
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) options.onStdoutLine(line.replace(/\r$/, ''));
      });
      child.stderr?.on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.length > STDERR_CAP * 2) stderr = stderr.slice(-STDERR_CAP);
      });

      const onAbort = (): void => {
        aborted = true;
        terminate(child);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });

      const finish = (): void => {
        this.live.delete(child);
        options.signal?.removeEventListener('abort', onAbort);
      };
      child.once('error', (error) => {
        finish();
        reject(error);
      });
      child.once('close', (code, signal) => {
        finish();
        if (pending && options.onStdoutLine) options.onStdoutLine(pending);
        resolve({ code, signal, stdout, stderr: stderr.slice(-STDERR_CAP), aborted });
      });
    });
  }

  /** Kills every process still running and waits (briefly) for them to go. */
  async killAll(): Promise<void> {
    const children = [...this.live];
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            child.once('close', () => resolve());
            terminate(child);
            setTimeout(resolve, KILL_GRACE_MS * 2).unref?.();
          }),
      ),
    );
  }
}

function terminate(child: ChildLike): void {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
  timer.unref?.();
  child.once('close', () => clearTimeout(timer));
}
