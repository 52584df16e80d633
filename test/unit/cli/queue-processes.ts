// Real `studio` processes for the tests of a queue's settings and a worker's stop, and a pass-through
// to Redis that a test can cut (Redis gone, as the worker sees it) without stopping the Redis itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

export interface CliProcess {
  child: ChildProcess;
  said(): string;
  printed(): string;
  /** Its exit code, or the signal that ended it. */
  exited: Promise<number | string>;
}

/**
 * `studio ARGS` as a process of its own, with `env` added to this one's (PATH and so on). It runs in the
 * repository (where tsx is found), so its paths are given whole.
 */
export function cliProcess(args: readonly string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'electron/cli/index.ts'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, said: () => stderr, printed: () => stdout, exited };
}

/** Settles once the process printed `text` on stderr; fails if it exits first, with what it said. */
export function whenSaid(process: CliProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (!process.said().includes(text)) return;
      process.child.stderr?.off('data', look);
      resolve();
    };
    process.child.stderr?.on('data', look);
    look();
    void process.exited.then((code) =>
      reject(new Error(`the process exited (${code}) before it said "${text}": ${process.said()}`)),
    );
  });
}

/** Settles with the exit, or fails after `guardMs` naming what it waited for (a hang guard, not a verdict). */
export async function exitWithin(process: CliProcess, guardMs: number, what: string): Promise<number | string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`waited ${guardMs / 1000} s for ${what}, and it did not exit: ${process.said()}`)),
      guardMs,
    );
  });
  try {
    return await Promise.race([process.exited, guard]);
  } finally {
    clearTimeout(timer);
  }
}

export interface RedisPassage {
  port: number;
  /** Every connection dropped at once (reset, as a host that went away) and no new one taken. */
  cut(): Promise<void>;
  /** Connections go through again. */
  mend(): Promise<void>;
  /** Connections tried while cut (each refused with a reset). */
  refused(): number;
  close(): Promise<void>;
}

/**
 * A pass-through to Redis on a port of its own (`port`, or a free one). While cut, it still accepts a
 * connection but resets it at once, so a client sees ECONNRESET and tries again, and the test can count
 * the tries.
 */
export async function redisPassage(redisPort: number, port = 0): Promise<RedisPassage> {
  const open = new Set<Socket>();
  let cut = false;
  let refused = 0;
  const server: Server = createServer((client) => {
    if (cut) {
      refused += 1;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(redisPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      if (!client.destroyed) client.resetAndDestroy();
      if (!upstream.destroyed) upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the pass-through has no port');
  return {
    port: address.port,
    async cut() {
      cut = true;
      for (const socket of [...open]) socket.resetAndDestroy();
      open.clear();
    },
    async mend() {
      cut = false;
    },
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...open]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
