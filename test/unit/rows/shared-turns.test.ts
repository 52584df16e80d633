// The service's rate shared by workers on two machines (two Redis clients): no second holds more
// requests than the rate, wherever the second falls, and a 1005 answer to one holds them all.
import { describe, expect, it } from 'vitest';
import { SharedTurns, TURN_LATENESS_MS } from '../../../electron/services/rows/shared-turns';
import { redisClients, redisPerFile } from '../../redis-per-file';
import { mostInWindow } from './windows';

const redis = redisPerFile();
const { client, prefix } = redisClients(redis);

describe('shared turns', () => {
  it('keeps the requests of two workers within the rate in any second', async () => {
    const at = prefix();
    const workers = [client(), client()].map((r) => new SharedTurns(r, { perSecond: 10, prefix: at }));
    // Each turn's time is Redis's own clock when it granted it, whatever the machine's load did after.
    const granted = await Promise.all(Array.from({ length: 36 }, (_, i) => workers[i % 2].take()));
    expect(granted).toHaveLength(36);
    expect(mostInWindow(granted, 1000)).toBeLessThanOrEqual(10);
  });

  it('holds every worker after a 1005 answer to one of them', async () => {
    const at = prefix();
    const [one, other] = [client(), client()].map((r) => new SharedTurns(r, { perSecond: null, prefix: at }));
    const refused = new Response(JSON.stringify({ code: 1005, msg: 'Operation too frequent' }), {
      headers: { 'content-type': 'application/json' },
    });
    const answer = await one.fetch(async () => refused)('http://service.test/api/open/v3/audio/create');
    expect((await answer.json()) as { code: number }).toEqual({ code: 1005, msg: 'Operation too frequent' });
    const reader = client();
    expect(await reader.pttl(`${at}:turns:hold`)).toBeGreaterThan(0);
    // The other worker's next request waits for the hold to end.
    await other.take();
    expect(await reader.pttl(`${at}:turns:hold`)).toBeLessThanOrEqual(0);
  });

  it('lets an answer that is not a refusal go without holding anyone', async () => {
    const at = prefix();
    const turns = new SharedTurns(client(), { perSecond: null, prefix: at });
    const ok = new Response(JSON.stringify({ code: 1000, data: {} }), {
      headers: { 'content-type': 'application/json' },
    });
    await turns.fetch(async () => ok)('http://service.test/api/open/v3/voice/list');
    expect(await client().exists(`${at}:turns:hold`)).toBe(0);
  });
});

describe('turns published for the studio that queued the run', () => {
  it("gives the studio's requests the windows a worker uses, so together they stay within the rate", async () => {
    const at = prefix();
    const worker = new SharedTurns(client(), { perSecond: 10, prefix: at });
    const studio = new SharedTurns(client(), { perSecond: 'published', prefix: at });
    await worker.take();
    const granted = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? studio : worker).take()));
    expect(mostInWindow(granted, 1000)).toBeLessThanOrEqual(10);
  });

  it('lets the studio go at once while no worker has published a rate', async () => {
    const at = prefix();
    const studio = new SharedTurns(client(), { perSecond: 'published', prefix: at });
    const granted = await Promise.all(Array.from({ length: 30 }, () => studio.take()));
    // Thirty turns in one go: nothing held them to a rate (a rate of 10 would spread them over 3 s).
    expect(granted).toHaveLength(30);
    expect(mostInWindow(granted, 1000)).toBeGreaterThan(10);
  });
});

it('keeps room in every second for requests that reach the service a little late', async () => {
  const at = prefix();
  const turns = new SharedTurns(client(), { perSecond: 10, prefix: at });
  const granted = await Promise.all(Array.from({ length: 30 }, () => turns.take()));
  expect(mostInWindow(granted, 1000 + TURN_LATENESS_MS)).toBeLessThanOrEqual(10);
});

it('gives back a turn that reached a busy worker late, and takes the next one', async () => {
  const redisClient = client();
  let grants = 0;
  let grantedAt = 0;
  const evaluate = redisClient.eval.bind(redisClient) as (...args: unknown[]) => Promise<unknown>;
  (redisClient as unknown as { eval: (...args: unknown[]) => Promise<unknown> }).eval = async (...args) => {
    const answer = await evaluate(...args);
    if (Number(answer) <= 0) {
      grants += 1;
      grantedAt = -Number(answer);
    }
    return answer;
  };
  let reads = 0;
  // The sixth answer reaches the worker 200 ms late (its event loop was busy), the rest at once, however
  // busy the machine running the test is.
  const now = () => grantedAt + (++reads === 6 ? 200 : 0);
  const turns = new SharedTurns(redisClient, { perSecond: 40, prefix: prefix(), now });
  for (let i = 0; i < 6; i++) await turns.take();
  expect(grants).toBe(7);
});
