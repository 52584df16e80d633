import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchToFile, FinalDownloadError } from '../../../electron/services/downloads/fetch-to-file';
import { nodeHttpGet } from '../../../electron/services/downloads/http-get';

let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'http-get-'));
  server = createServer((req, res) => {
    if (req.url === '/hop') return void res.writeHead(302, { location: '/file' }).end();
    if (req.url === '/to-metadata')
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (req.url === '/signed') return void res.writeHead(403).end();
    if (req.url === '/file') return void res.writeHead(200, { 'content-length': '5', etag: '"a"' }).end('hello');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("downloads through Node's HTTP client", () => {
  it('follows redirects and hands the body over as a Node stream', async () => {
    const response = await nodeHttpGet(`${base}/hop`, { headers: {} });
    expect(response.status).toBe(200);
    expect(response.header('ETag')).toBe('"a"');
    const chunks: Buffer[] = [];
    for await (const chunk of response.body ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
  });

  it('words a refused link as expired or gone, never as a promise of days left', async () => {
    const gone = fetchToFile({ url: `${base}/removed.mp4`, target: join(dir, 'gone.mp4'), validators: null });
    await expect(gone).rejects.toBeInstanceOf(FinalDownloadError);
    await expect(gone).rejects.toThrow(
      'the link no longer works (HTTP 404): the result is gone from the service (expired or removed)',
    );
    await expect(gone).rejects.not.toThrow(/kept for 7 days/);
    const signed = fetchToFile({ url: `${base}/signed`, target: join(dir, 'signed.mp4'), validators: null });
    await expect(signed).rejects.toThrow('the link no longer works (HTTP 403): the link has expired');
    expect(readdirSync(dir)).toEqual([]);
  });

  // Fails when the transport skips the address rules (mutation: drop assertAllowedTarget in get()).
  it('refuses cloud-metadata and link-local targets, also behind a redirect, for good and leaving nothing', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', `${base}/to-metadata`]) {
      const attempt = fetchToFile({ url, target: join(dir, 'result.mp4'), validators: null });
      await expect(attempt).rejects.toBeInstanceOf(FinalDownloadError);
      await expect(attempt).rejects.toThrow(/refused/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
