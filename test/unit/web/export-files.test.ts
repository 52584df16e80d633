// The web host hands its page an "Export CSV" the host wrote: behind the same Host/Origin/token check as
// every route, by the id the export answered, once, as an attachment, and the file is removed after.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExportFiles } from '../../../electron/services/downloads/library-export';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { cookieName } from '../../../electron/web/access';
import { startWebServer, type WebServer } from '../../../electron/web/server';

const token = 'export-files-token-abcdefghijklmnop';
const csv = 'studio id,service id\r\njob-1,r-1\r\n';
let server: WebServer;
let host: string;
let exports: ExportFiles;

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  mkdirSync(join(rendererDir, 'assets'));
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-web-data-'));
  exports = new ExportFiles(join(dataDir, 'exports'));
  const base = createMemoryHostBase({ dataDir });
  const domains = { exportFile: async (id: string) => exports.take(id) };
  server = await startWebServer({
    services: { base, dispatch: async () => ({ ok: true }), domains, subscribe: () => () => undefined } as never,
    rendererDir,
    token,
    port: 0,
  });
  host = `127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

describe('an exported CSV in the web host', () => {
  it('is refused without the token, sent once to the page as an attachment, then gone', async () => {
    const file = await exports.create('library-2026-11-28.csv');
    writeFileSync(file.path, csv);
    exports.offer(file.id, file);
    const url = `/bridge/exports/${file.id}`;
    const cookie = `${cookieName(server.port)}=${token}`;
    expect((await server.app.inject({ method: 'GET', url, headers: { host } })).statusCode).toBe(401);
    expect(
      (await server.app.inject({ method: 'GET', url: '/bridge/exports/../../etc', headers: { host, cookie } }))
        .statusCode,
    ).toBe(404);
    const sent = await server.app.inject({ method: 'GET', url, headers: { host, cookie } });
    expect(sent.statusCode).toBe(200);
    expect(sent.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(sent.headers['content-disposition']).toBe('attachment; filename="library-2026-11-28.csv"');
    expect(sent.body).toBe(csv);
    // Removed once the stream is closed, whatever the time that takes.
    await vi.waitFor(() => expect(existsSync(file.path)).toBe(false));
    expect((await server.app.inject({ method: 'GET', url, headers: { host, cookie } })).statusCode).toBe(404);
  });
});
