import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cookieName } from '../../../electron/web/access';
import { buildWebBundle, webBundleIsStale } from '../../../electron/launch/web-bundle.mjs';

const root = join(import.meta.dirname, '..', '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'web-bundle-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// `npm start` in a browser runs this bundle, not the TypeScript the other tests load: it must start,
// serve the page and answer the bridge with its bundled dependencies (a dependency that cannot be
// bundled fails here, not on a user's machine).
describe('the web host bundle', () => {
  it('is rebuilt when stale, starts, serves the page and answers the bridge from the sandbox', async () => {
    await buildWebBundle(root);
    expect(webBundleIsStale(root)).toBe(false);
    const child = spawn(process.execPath, [join(root, 'electron/launch/web.mjs'), '--port', '0', '--data-dir', dataDir], { cwd: root, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /is at (\S+)/.exec(out);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`the bundled host exited with ${code}`)));
      });
      const url = new URL(address);
      const cookie = `${cookieName(Number(url.port))}=${url.searchParams.get('token')}`;
      const page = await fetch(url.origin, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app">');
      const answer = await fetch(`${url.origin}/bridge/call/catalogue.voices`, { method: 'POST', headers: { cookie, origin: url.origin, 'content-type': 'application/json' }, body: '[]' });
      const body = (await answer.json()) as { ok: boolean; value: { voice_id: string }[] };
      expect(body.ok).toBe(true);
      expect(body.value.map((v) => v.voice_id)).toContain('sandbox_ava');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
  }, 60_000);
});
