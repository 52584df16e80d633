import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from '../../../electron/main/app-protocol';
import { CSP_NONCE_PLACEHOLDER, studioCsp } from '../../../electron/services/system/csp';

const base = mkdtempSync(join(tmpdir(), 'studio-app-protocol-'));
const rendererDir = join(base, 'renderer');
mkdirSync(join(rendererDir, 'assets'), { recursive: true });
writeFileSync(
  join(rendererDir, 'index.html'),
  `<meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><title>studio</title>`,
);
writeFileSync(join(rendererDir, 'assets', 'index-abc.js'), 'export const x = 1;');
writeFileSync(join(rendererDir, 'assets', 'index-abc.css'), 'body{}');
// Beside the renderer folder: what a path that climbs out would reach.
writeFileSync(join(base, 'secret.js'), 'the canary');
writeFileSync(join(base, 'renderer-other.js'), 'the canary');

const serve = createAppProtocolHandler(rendererDir);
const get = (url: string, method = 'GET') => serve(new Request(url, { method }));

describe('app:// protocol', () => {
  it('serves the page with a fresh nonce in its CSP and its meta tag on every load', async () => {
    const first = await get('app://studio/');
    const html = await first.text();
    const nonce = /nonce="([^"]+)"/.exec(html)![1];
    expect(nonce).not.toBe(CSP_NONCE_PLACEHOLDER);
    expect(first.headers.get('content-security-policy')).toBe(studioCsp({ nonce }));
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const second = await get('app://studio/index.html#/voices');
    const other = /nonce="([^"]+)"/.exec(await second.text())![1];
    expect(other).not.toBe(nonce);
  });

  it('serves the built assets with their types and the plain CSP', async () => {
    const script = await get('app://studio/assets/index-abc.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('export const x = 1;');
    expect(script.headers.get('content-security-policy')).toBe(studioCsp());
    expect((await get('app://studio/assets/index-abc.css')).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
    expect(await (await get('app://studio/assets/index-abc.js', 'HEAD')).text()).toBe('');
  });

  it('reads nothing outside the renderer folder, and nothing but GET', async () => {
    const outside = [
      'app://studio/%2e%2e/secret.js',
      'app://studio/..%2Fsecret.js',
      'app://studio/assets/..%2F..%2Fsecret.js',
      'app://studio/%2E%2E%2Frenderer-other.js',
      'app://studio/..%5Csecret.js',
      'app://studio/%2Fetc%2Fpasswd',
      'app://studio/assets/missing.js',
      'app://studio/assets/index-abc.js%00.png',
      'app://studio/%E0%A4%A',
      'app://evil/index.html',
      'app://studio/assets',
    ];
    for (const url of outside) {
      const response = await get(url);
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(await response.text(), url).not.toContain('canary');
    }
    expect((await get('app://studio/index.html', 'POST')).status).toBe(405);
  });

  it('is registered as a standard, secure scheme that other origins cannot read', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    });
  });
});

describe('studio CSP', () => {
  it('runs only its own scripts and applies inline styles only with the nonce', () => {
    const policy = studioCsp({ nonce: 'n0nce' });
    const directive = (name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));
    // WebAssembly may compile (the text rasteriser); eval and inline scripts may not.
    expect(directive('script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive('style-src')).toBe("style-src 'self' 'nonce-n0nce'");
    expect(studioCsp()).toContain("style-src 'self';");
    expect(policy.replace("'wasm-unsafe-eval'", '')).not.toContain('unsafe');
    expect(directive('worker-src')).toBe("worker-src 'none'");
    // The studio itself, and only the real-time service's gateways beside it (live face swap's channel).
    expect(directive('connect-src')).toBe(
      "connect-src 'self' https://*.agora.io wss://*.agora.io https://*.sd-rtn.com wss://*.sd-rtn.com",
    );
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(studioCsp({ devServer: true })).toContain("style-src 'self' 'unsafe-inline'");
  });
});
