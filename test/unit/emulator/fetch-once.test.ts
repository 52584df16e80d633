// The sandbox fetching one link for many jobs at once (every row of a campaign names the same logo):
// one download that every job waits for. Two downloads into one temporary file used to race, and the
// second rename failed a video job with ENOENT.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MediaFetcher } from '../../../electron/emulator/media/fetch';
import type { Files } from '../../../electron/emulator/state/files';

const dir = mkdtempSync(join(tmpdir(), 'studio-fetch-once-'));
let server: Server | null = null;
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("the sandbox's media fetcher", () => {
  it('downloads a link asked for by several jobs at once a single time, and gives each the file', async () => {
    let served = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = createServer((_req, res) => {
      served += 1;
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write('half of the logo, ');
      // The body ends only once every job has asked: their downloads overlap.
      void held.then(() => res.end('and the rest'));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/logo.png`;
    const files = { baseUrl: '', localFileFor: () => null } as unknown as Files;
    const fetcher = new MediaFetcher(files, dir);
    const asked = Array.from({ length: 5 }, () => fetcher.toFile(url, 'image_url'));
    release();
    const paths = await Promise.all(asked);
    expect(new Set(paths).size).toBe(1);
    expect(readFileSync(paths[0], 'utf8')).toBe('half of the logo, and the rest');
    expect(served).toBe(1);
  });
});
