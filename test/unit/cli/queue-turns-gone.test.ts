// A request of `campaign run --queue` takes its turn in the queue's Redis first. When Redis went while a
// turn's command was on its way, ioredis kept that command to send again once it reconnected, which it
// never did: the balance reading waiting for the turn waited for ever, the run's engine with it, and the
// command printed "Paused" but never exited (queue-pause.test failed so under the suite's load). Here a
// Redis answers the connection's ready check, takes the turn's script, and goes for good before answering.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { TURN_COMMAND_TIMEOUT_MS, turnsConnection } from '../../../electron/cli/queue-url';
import { RedisLimiter } from '../../../electron/services/rows/rate/redis-limiter';

/** A hang guard only, well past the command's timeout. */
const GUARD_MS = 10 * TURN_COMMAND_TIMEOUT_MS;

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A Redis that answers the connection's set-up, and on the first script drops it unanswered and then every connection. */
async function redisThatGoes(): Promise<{ port: number; evalSeen: Promise<void> }> {
  let seen!: () => void;
  const evalSeen = new Promise<void>((resolve) => (seen = resolve));
  const sockets = new Set<Socket>();
  let gone = false;
  server = createServer((socket) => {
    // Gone, as a Redis behind a dropped link is: a connection is taken, then reset once the client has
    // set it up (its first command). Set up, ioredis starts a new queue of commands, and the one it kept
    // from the dropped connection is out of reach of its retry limit, waiting to be sent again.
    if (gone) {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.resetAndDestroy());
      return;
    }
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      // Each command's name, in order (an array's first bulk string), answered as a Redis 7 would.
      for (const [, name] of chunk.toString().matchAll(/\*\d+\r\n\$\d+\r\n([^\r]+)/g)) {
        const command = name.toUpperCase();
        if (command === 'HELLO') socket.write("-ERR unknown command 'HELLO'\r\n");
        else if (command === 'CLIENT') socket.write('+OK\r\n');
        else if (command === 'INFO') {
          const info = 'redis_version:7.0.0\r\nloading:0\r\n';
          socket.write(`$${info.length}\r\n${info}\r\n`);
        } else if (command === 'EVAL' || command === 'EVALSHA') {
          gone = true;
          for (const open of sockets) open.resetAndDestroy();
          seen();
          return;
        } else socket.write('+OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return { port: address.port, evalSeen };
}

it('lets the request go when Redis goes with its turn unanswered', async () => {
  const { port, evalSeen } = await redisThatGoes();
  const redis = turnsConnection(`redis://127.0.0.1:${port}`);
  let guard: ReturnType<typeof setTimeout> | undefined;
  try {
    const answered = new RedisLimiter(redis, { perSecond: 'published' }).turn();
    await evalSeen;
    const turn = await Promise.race([
      answered,
      new Promise<never>((_, reject) => {
        guard = setTimeout(
          () => reject(new Error(`the request still waited for its turn after ${GUARD_MS / 1000} s`)),
          GUARD_MS,
        );
      }),
    ]);
    expect(turn).toBeTypeOf('number');
  } finally {
    clearTimeout(guard);
    redis.disconnect();
  }
});
