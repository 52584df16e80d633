import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cookieName } from '../../../electron/web/access';
import { buildBundle, bundleIsStale, bundlePath } from '../../../electron/launch/bundles.mjs';
import { until } from '../../wait';

const root = join(import.meta.dirname, '..', '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'web-bundle-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// `npm start` in a browser runs this bundle, not the TypeScript the other tests load: it must start,
// serve the page and answer the bridge with its bundled dependencies (a dependency that cannot be
// bundled fails here, not on a user's machine).
describe('the web host bundle', () => {
  it('is rebuilt when stale, starts, serves the page and answers the bridge from the sandbox', async () => {
    await buildBundle(root, 'web');
    expect(bundleIsStale(root, 'web')).toBe(false);
    // Its code cache is made with it, so that the first start compiles from it too.
    expect(existsSync(`${bundlePath(root, 'web')}.v8cache`)).toBe(true);
    const child = spawn(
      process.execPath,
      [join(root, 'electron/launch/web.mjs'), '--port', '0', '--data-dir', dataDir],
      { cwd: root, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
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
      const answer = await fetch(`${url.origin}/bridge/call/catalogue.voices`, {
        method: 'POST',
        headers: { cookie, origin: url.origin, 'content-type': 'application/json' },
        body: '[]',
      });
      const body = (await answer.json()) as { ok: boolean; value: { voice_id: string }[] };
      expect(body.ok).toBe(true);
      expect(body.value.map((v) => v.voice_id)).toContain('sandbox_ava');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
    // A hang guard only: the build and a start take some 20 s on a busy two-core machine.
  }, 300_000);

  it("keeps V8's compiled code after a start, and the next start compiles from it", async () => {
    const cache = `${bundlePath(root, 'web')}.v8cache`;
    rmSync(cache, { force: true });
    const first = await startBundledHost();
    try {
      // The trace comes on stderr and the address on stdout: two pipes, read in either order here.
      await until('the first start to trace how it compiled the bundle', () =>
        first.trace().includes('startup: bundle compiled'),
      );
      expect(first.trace()).toContain('startup: bundle compiled (code cache none)');
      await until('the code cache to be written', () => existsSync(cache));
    } finally {
      await first.stop();
    }
    const second = await startBundledHost();
    try {
      await until('the second start to trace how it compiled the bundle', () =>
        second.trace().includes('startup: bundle compiled'),
      );
      expect(second.trace()).toContain('startup: bundle compiled (code cache used)');
    } finally {
      await second.stop();
    }
  }, 120_000);
});

/** The bundled host on a port of its own, with its start-up trace on. */
async function startBundledHost(): Promise<{ trace(): string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(root, 'electron/launch/web.mjs'), '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { PATH: process.env.PATH, STUDIO_STARTUP_TRACE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (/is at \S+/.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the bundled host exited with ${code}: ${err}`)));
  });
  return {
    trace: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    },
  };
}
