// The Redis limiter: the service's rate shared by workers on two machines (two Redis clients), no second
// holding more requests than the rate wherever it falls, and a 1005 answer to one holding them all.
import type { Command, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisLimiter, TURN_LATENESS_MS } from '../../../electron/services/rows/rate/redis-limiter';
import { redisClients, redisPerFile } from '../../redis-per-file';
import { mostInWindow } from './windows';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

/** A Redis client whose script calls are counted, and whose turn reservations' answers are kept. */
function counted(target: Redis = client()) {
  const seen = { scripts: 0, reservations: [] as [number, number][] };
  // Scripts go as EVALSHA (EVAL the first time on a connection): each is seen as it is sent, once
  // (a command sent before the connection was up is handed to sendCommand again when it is).
  const sent = new WeakSet<Command>();
  const send = target.sendCommand.bind(target) as (command: Command, ...rest: unknown[]) => unknown;
  (target as unknown as { sendCommand: typeof send }).sendCommand = (command, ...rest) => {
    const script = command.name === 'evalsha' || command.name === 'eval';
    if (script && !sent.has(command)) {
      sent.add(command);
      command.promise.then(
        (answer: unknown) => {
          seen.scripts += 1;
          if (Array.isArray(answer) && Number(answer[0]) >= 0)
            seen.reservations.push([Number(answer[0]), Number(answer[1])]);
        },
        () => undefined,
      );
    }
    return send(command, ...rest);
  };
  return { redis: target, seen };
}

describe('the Redis limiter', () => {
  it('keeps the requests of two workers within the rate in any second', async () => {
    const at = prefix();
    const workers = [client(), client()].map((r) => new RedisLimiter(r, { perSecond: 10, prefix: at }));
    // Each turn's time is Redis's own clock when it granted it, whatever the machine's load did after.
    const granted = await Promise.all(Array.from({ length: 36 }, (_, i) => workers[i % 2].turn()));
    expect(granted).toHaveLength(36);
    expect(mostInWindow(granted, 1000)).toBeLessThanOrEqual(10);
  });

  it('keeps room in every second for requests that reach the service a little late', async () => {
    const turns = new RedisLimiter(client(), { perSecond: 10, prefix: prefix() });
    const granted = await Promise.all(Array.from({ length: 30 }, () => turns.turn()));
    expect(mostInWindow(granted, 1000 + TURN_LATENESS_MS)).toBeLessThanOrEqual(10);
  });

  it('reserves a waiting request its turn once, rather than asking again and again', async () => {
    // Thirty requests at 10 a second wait up to three seconds: each makes one reservation and, if it had
    // to wait, one check that the turn still stands (more only when a turn reached it late).
    const { redis: counting, seen } = counted();
    const turns = new RedisLimiter(counting, { perSecond: 10, prefix: prefix() });
    await Promise.all(Array.from({ length: 30 }, () => turns.turn()));
    const givenBack = seen.reservations.length - 30;
    expect(seen.scripts).toBeLessThanOrEqual(2 * 30 + 2 * givenBack);
  });

  it('holds every worker after a 1005 answer to one of them, and says so for the queue to hold its takes', async () => {
    const at = prefix();
    const held: number[] = [];
    const [one, other] = [client(), client()].map(
      (r) => new RedisLimiter(r, { perSecond: null, prefix: at, held: (ms) => held.push(ms) }),
    );
    await one.turn();
    await one.refused();
    expect(held).toEqual([1_000]);
    const reader = client();
    expect(await reader.pttl(`${at}:turns:hold`)).toBeGreaterThan(0);
    // The other worker's next request waits for the hold to end.
    await other.turn();
    expect(await reader.pttl(`${at}:turns:hold`)).toBeLessThanOrEqual(0);
  });

  it('takes back the turns reserved beyond a 1005 answer: none falls in the held second, none is wasted', async () => {
    const at = prefix();
    const [one, other] = [counted(), counted()];
    const [first, second] = [one, other].map((c) => new RedisLimiter(c.redis, { perSecond: 10, prefix: at }));
    let ended = 0;
    let heldAt: Promise<number> | undefined;
    // Thirty requests reserve turns up to two seconds ahead; the eleventh to go is refused.
    const granted = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? first : second).turn().then((turn) => {
          if (++ended === 11) heldAt = first.hold();
          return turn;
        }),
      ),
    );
    const held = await (heldAt as Promise<number>);
    expect(granted.filter((turn) => turn > held && turn < held + 1000)).toEqual([]);
    expect(mostInWindow(granted, 1000 + TURN_LATENESS_MS)).toBeLessThanOrEqual(10);
    // Once the hold ends, requests go at once while the second has room: the turns reserved before it
    // were taken back, not left to push the new ones a second further on.
    const afterHold = [...one.seen.reservations, ...other.seen.reservations].filter(([, now]) => now >= held + 1000);
    expect(afterHold.filter(([turn, now]) => turn === now).length).toBeGreaterThan(0);
  });
});

describe('turns published for the studio that queued the run', () => {
  it("gives the studio's requests the rate a worker uses, so together they stay within it", async () => {
    const at = prefix();
    const worker = new RedisLimiter(client(), { perSecond: 10, prefix: at });
    const studio = new RedisLimiter(client(), { perSecond: 'published', prefix: at });
    await worker.turn();
    const granted = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? studio : worker).turn()));
    expect(mostInWindow(granted, 1000)).toBeLessThanOrEqual(10);
  });

  it('says turns are scarce once a turn waited behind others, and not while turns go at once', async () => {
    const at = prefix();
    const [mine, other] = [client(), client()].map((r) => new RedisLimiter(r, { perSecond: 10, prefix: at }));
    await mine.turn();
    expect(mine.scarce()).toBe(false);
    // Six at once at 10 a second: the last waits half a second behind the five before it.
    await Promise.all(Array.from({ length: 6 }, () => mine.turn()));
    expect(mine.scarce()).toBe(true);
    // The other worker's turns waited behind none: it has not seen the line.
    expect(other.scarce()).toBe(false);
  });

  it('lets the studio go at once while no worker has published a rate', async () => {
    const at = prefix();
    const studio = new RedisLimiter(client(), { perSecond: 'published', prefix: at });
    const granted = await Promise.all(Array.from({ length: 30 }, () => studio.turn()));
    // Thirty turns in one go: nothing held them to a rate (a rate of 10 would spread them over 3 s).
    expect(granted).toHaveLength(30);
    expect(mostInWindow(granted, 1000)).toBeGreaterThan(10);
  });
});

it('gives back a turn that reached a busy worker late, and takes the next one', async () => {
  const { redis: counting, seen } = counted();
  // Each answer reaches the worker as soon as Redis gave it, except the sixth, which its busy event loop
  // kept waiting 200 ms; however busy the machine running the test is.
  const now = () => {
    const last = seen.reservations.at(-1);
    return last ? last[1] + (seen.reservations.length === 6 ? 200 : 0) : 0;
  };
  const turns = new RedisLimiter(counting, { perSecond: 40, prefix: prefix(), now });
  for (let i = 0; i < 6; i++) await turns.turn();
  expect(seen.reservations).toHaveLength(7);
});
