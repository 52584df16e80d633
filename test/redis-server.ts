// A real Redis for the tests and benches of the queue: Debian's redis-server on a free loopback port,
// in a folder of its own, with append-only persistence (so a restart keeps what was queued) and
// `noeviction` (Redis refuses a write rather than silently dropping a queued job when memory runs out).
// Started in its own process group and stopped by that group, also when the test process exits early.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** REDIS_SERVER when set, else the first redis-server on the PATH (Debian's is /usr/bin/redis-server). */
export const REDIS_SERVER =
  process.env.REDIS_SERVER ??
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'redis-server'))
    .find((path) => executable(path)) ??
  '/usr/bin/redis-server';
/** A hang guard for a start or a stop, never a verdict: Redis starts in milliseconds on a quiet machine. */
const GUARD_MS = 60_000;

export interface RedisServerOptions {
  /** Clients must give this password (`requirepass`); it goes to Redis on its standard input, not its command line. */
  password?: string;
}

export interface RunningRedis {
  /** `redis://[:password@]127.0.0.1:PORT`: what a client is given. */
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** Stops Redis as an operator would (it writes its append-only file) and starts it again on the same port and folder. */
  restart(): Promise<void>;
  /** Stops Redis and removes its folder. */
  close(): Promise<void>;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const running = new Set<ChildProcess>();
let exitHookSet = false;

/** Kills every Redis this process started when it exits without having closed them (a test that threw, a guard). */
function killOnExit(): void {
  if (exitHookSet) return;
  exitHookSet = true;
  process.once('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL');
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function config(port: number, dir: string, password: string | undefined): string {
  return [
    `port ${port}`,
    'bind 127.0.0.1',
    `dir ${dir}`,
    'maxmemory-policy noeviction',
    'appendonly yes',
    'appendfsync everysec',
    'save ""',
    'daemonize no',
    ...(password === undefined ? [] : [`requirepass "${password}"`]),
  ].join('\n');
}

/** Starts redis-server and resolves once it says it accepts connections (its own log line, not a wait). */
function launch(port: number, dir: string, password: string | undefined): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // `-` reads the configuration from standard input, which keeps the password out of the process list.
    const child = spawn(REDIS_SERVER, ['-'], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    const guard = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      reject(new Error(`redis-server did not start within ${GUARD_MS / 1000} s:\n${output}`));
    }, GUARD_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!output.includes('Ready to accept connections')) return;
      clearTimeout(guard);
      child.stdout?.off('data', onData);
      // Keep draining, so a chatty Redis never blocks on a full pipe.
      child.stdout?.resume();
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => {
      clearTimeout(guard);
      running.delete(child);
      reject(
        new Error(`redis-server could not be started (${error.message}); install it: apt-get install -y redis-server`),
      );
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      clearTimeout(guard);
      reject(new Error(`redis-server ended (${signal ?? code}) before it was ready:\n${output}`));
    });
    child.stdin?.end(config(port, dir, password));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const guard = setTimeout(() => killGroup(child, 'SIGKILL'), GUARD_MS);
    child.once('exit', () => {
      clearTimeout(guard);
      running.delete(child);
      resolve();
    });
    // SIGTERM: Redis flushes its append-only file and exits.
    killGroup(child, 'SIGTERM');
  });
}

export const redisServerFound = (): boolean => executable(REDIS_SERVER);

export async function startRedis(options: RedisServerOptions = {}): Promise<RunningRedis> {
  if (!redisServerFound())
    throw new Error(
      `No ${REDIS_SERVER}: install Debian's redis-server (apt-get install -y redis-server), or set REDIS_SERVER`,
    );
  killOnExit();
  const dir = mkdtempSync(join(tmpdir(), 'studio-redis-'));
  const { password } = options;
  let port = 0;
  let child: ChildProcess | null = null;
  // A free port can be taken between asking and binding: try another a few times.
  for (let attempt = 0; child === null; attempt += 1) {
    port = await freePort();
    try {
      child = await launch(port, dir, password);
    } catch (error) {
      if (attempt >= 4) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const auth = password === undefined ? '' : `:${encodeURIComponent(password)}@`;
  let current: ChildProcess = child;
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    dir,
    async restart() {
      await stopChild(current);
      current = await launch(port, dir, password);
    },
    async close() {
      await stopChild(current);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
