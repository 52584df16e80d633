import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MediaCache, cacheName, shorten } from '../../../electron/services/media/media-cache';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeFetch(
  bodies: Record<string, { bytes: number; declared?: number; status?: number }>,
  calls: string[],
): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = String(input);
    calls.push(url);
    const spec = bodies[url];
    if (!spec) return new Response('nope', { status: 404 });
    const headers = { 'content-length': String(spec.declared ?? spec.bytes) };
    return new Response(new Uint8Array(spec.bytes).fill(7), { status: spec.status ?? 200, headers });
  }) as typeof fetch;
}

describe('MediaCache', () => {
  it('downloads once, even when asked twice at the same time', async () => {
    const calls: string[] = [];
    const cache = new MediaCache({
      dir,
      maxBytes: 10_000,
      fetch: fakeFetch({ 'https://a/x.mp4': { bytes: 100 } }, calls),
    });
    const [one, two] = await Promise.all([cache.localPath('https://a/x.mp4'), cache.localPath('https://a/x.mp4')]);
    expect(one).toBe(two);
    expect(one).toBe(join(dir, cacheName('https://a/x.mp4')));
    expect(one.endsWith('.mp4')).toBe(true);
    await cache.localPath('https://a/x.mp4');
    expect(calls).toHaveLength(1);
  });

  it('evicts the least recently used files beyond the cap', async () => {
    const calls: string[] = [];
    const bodies = {
      'https://a/1.mp4': { bytes: 400 },
      'https://a/2.mp4': { bytes: 400 },
      'https://a/3.mp4': { bytes: 400 },
    };
    const cache = new MediaCache({ dir, maxBytes: 1000, fetch: fakeFetch(bodies, calls) });
    const first = await cache.localPath('https://a/1.mp4');
    const second = await cache.localPath('https://a/2.mp4');
    utimesSync(second, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    utimesSync(first, new Date(Date.now() - 30_000), new Date(Date.now() - 60_000));
    const third = await cache.localPath('https://a/3.mp4');
    expect([existsSync(first), existsSync(second), existsSync(third)]).toEqual([true, false, true]);
  });

  it('refuses a file larger than allowed and leaves no part file', async () => {
    const calls: string[] = [];
    const cache = new MediaCache({
      dir,
      maxBytes: 1000,
      maxFileBytes: 50,
      fetch: fakeFetch({ 'https://a/big.mp4': { bytes: 100, declared: 0 } }, calls),
    });
    await expect(cache.localPath('https://a/big.mp4')).rejects.toThrow(/larger than the 0 MB the media cache takes/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reports HTTP errors and early ends without the query string', async () => {
    const calls: string[] = [];
    const cache = new MediaCache({
      dir,
      maxBytes: 1000,
      fetch: fakeFetch({ 'https://a/short.mp4?sig=s3cret': { bytes: 10, declared: 20 } }, calls),
    });
    const error = await cache.localPath('https://a/short.mp4?sig=s3cret').catch((e: Error) => e);
    expect(String(error)).not.toContain('s3cret');
    expect((error as Error).message).toMatch(
      /download of https:\/\/a\/short\.mp4 stopped early|cannot download https:\/\/a\/short\.mp4/,
    );
    await expect(cache.localPath('https://a/none.mp4')).rejects.toThrow(
      'cannot download https://a/none.mp4 (HTTP 404)',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  // The idle timeout is the subject, so its clock is a fake one (setTimeout) that only this test moves,
  // and only while the download waits on the source for its next chunk: disk writes and the rest take
  // as long as this machine makes them without the download seeming silent.
  it('lets a slow download run as long as bytes keep coming, and gives up on silence', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Ten chunks 60 ms apart: 600 ms in all, more than the 250 ms timeout, never silent for that long.
      const steady = slowSource(null);
      const cache = new MediaCache({ dir, maxBytes: 10_000, timeoutMs: 250, fetch: steady.fetch });
      const whole = cache.localPath('https://a/slow.mp4');
      await drive(whole, steady);
      expect(readFileSync(await whole).length).toBe(100);
      // Silent for 600 ms after its third chunk.
      const pausing = slowSource(3);
      const stalled = new MediaCache({
        dir: join(dir, 'stalled'),
        maxBytes: 10_000,
        timeoutMs: 250,
        fetch: pausing.fetch,
      });
      const cut = stalled.localPath('https://a/stalls.mp4');
      cut.catch(() => undefined);
      await drive(cut, pausing);
      await expect(cut).rejects.toThrow('cannot download https://a/stalls.mp4: nothing arrived for 0.25 s');
      expect(readdirSync(join(dir, 'stalled'))).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses local files in place and names missing ones', async () => {
    const cache = new MediaCache({ dir, maxBytes: 1000 });
    const file = join(dir, 'local.png');
    writeFileSync(file, 'x');
    expect(await cache.localPath(file)).toBe(file);
    expect(await cache.localPath(`file://${file}`)).toBe(file);
    await expect(cache.localPath('/no/such.png')).rejects.toThrow('the file /no/such.png does not exist');
    await expect(cache.localPath('relative.png')).rejects.toThrow(/neither a link nor a local file path/);
  });

  // A voiceover's length is read from its bytes: fetched into memory and kept nowhere, unless the cache
  // already holds the file; past the size asked for, the caller is told to take the file path instead.
  it('reads a small file into memory, leaving the cache folder as it was', async () => {
    const calls: string[] = [];
    const cache = new MediaCache({
      dir,
      maxBytes: 10_000,
      fetch: fakeFetch({ 'https://a/v.mp3': { bytes: 300 }, 'https://a/big.mp3': { bytes: 900, declared: 0 } }, calls),
    });
    const bytes = await cache.smallFile('https://a/v.mp3', 500);
    expect(bytes?.length).toBe(300);
    expect(bytes?.every((b) => b === 7)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    // Larger than asked for, whether its answer says so or not.
    expect(await cache.smallFile('https://a/v.mp3', 299)).toBeNull();
    expect(await cache.smallFile('https://a/big.mp3', 500)).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
    const short = new MediaCache({
      dir,
      maxBytes: 10_000,
      fetch: fakeFetch({ 'https://a/s.mp3': { bytes: 10, declared: 20 } }, []),
    });
    await expect(short.smallFile('https://a/s.mp3', 500)).rejects.toThrow(/stopped early|cannot download/);
    await expect(cache.smallFile('https://a/none.mp3', 500)).rejects.toThrow(
      'cannot download https://a/none.mp3 (HTTP 404)',
    );
  });

  it('reads a small file from its cached copy without asking the network', async () => {
    const calls: string[] = [];
    const cache = new MediaCache({
      dir,
      maxBytes: 10_000,
      fetch: fakeFetch({ 'https://a/v.mp3': { bytes: 300 } }, calls),
    });
    await cache.localPath('https://a/v.mp3');
    expect(calls).toHaveLength(1);
    expect((await cache.smallFile('https://a/v.mp3', 500))?.length).toBe(300);
    expect(await cache.smallFile('https://a/v.mp3', 200)).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('shortens URLs for messages', () => {
    expect(shorten('https://a/b.mp4?token=1#x')).toBe('https://a/b.mp4');
  });
});

/**
 * A fetch whose body sends ten chunks of 10 bytes, each 60 ms after the last is asked for (600 ms after
 * chunk `pauseAfter`), on whatever setTimeout is. `asked()` settles once the reader waits on a chunk.
 */
function slowSource(pauseAfter: number | null): { fetch: typeof fetch; asked(): Promise<void> } {
  let waiting = false;
  let wake: (() => void) | null = null;
  return {
    fetch: (async (_url: string, init?: RequestInit) => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          // As fetch does: aborting the request's signal errors its body.
          init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
        },
        async pull(controller) {
          const pause = new Promise((resolve) => setTimeout(resolve, sent === pauseAfter ? 600 : 60));
          waiting = true;
          wake?.();
          wake = null;
          await pause;
          waiting = false;
          if (sent === 10) return controller.close();
          sent += 1;
          controller.enqueue(new Uint8Array(10).fill(1));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-length': '100' } });
    }) as typeof fetch,
    asked: () => (waiting ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
  };
}

/** Moves the fake clock 60 ms at a time, each time the download waits on the source, until it ends. */
async function drive(download: Promise<unknown>, source: { asked(): Promise<void> }): Promise<void> {
  let over = false;
  const ended = download.then(
    () => (over = true),
    () => (over = true),
  );
  while (!over) {
    await Promise.race([source.asked(), ended]);
    if (!over) await vi.advanceTimersByTimeAsync(60);
  }
}
