import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { newCspNonce, pageWithNonce, securityHeaders } from '../services/system/csp';
import { APP_HOST, APP_SCHEME } from './app-location';

/**
 * The app:// protocol the desktop window loads the page from, instead of file:// (where every file on
 * the disk would share the page's origin). It serves only the built renderer folder, read-only, with
 * the studio's security headers; the page itself gets a fresh CSP nonce on every load.
 *
 * Privileges: standard (relative URLs and a real origin), secure (a secure context, as https is),
 * fetch, and V8's code cache. Not corsEnabled: that would let other origins read these responses.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
} as const;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

function refusal(status: 400 | 404 | 405, text: string): Response {
  return new Response(text, { status, headers: { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The handler protocol.handle('app', …) runs for every request to app://. */
export function createAppProtocolHandler(
  rendererDir: string,
  read: (path: string) => Promise<Buffer> = readFile,
): (request: Request) => Promise<Response> {
  const root = resolve(rendererDir);
  const index = join(root, 'index.html');
  return async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return refusal(404, 'Not part of the studio');
    if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405, 'Read-only');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return refusal(400, 'Malformed address');
    }
    if (path.includes('\0')) return refusal(400, 'Malformed address');
    const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
    const type = CONTENT_TYPES[extname(file).toLowerCase()];
    if (!file.startsWith(root + sep) || !type) return refusal(404, 'Not part of the studio');
    let body: Buffer;
    try {
      body = await read(file);
    } catch {
      return refusal(404, 'Not part of the studio');
    }
    if (file === index) {
      const nonce = newCspNonce();
      const page = pageWithNonce(body.toString('utf8'), nonce);
      return new Response(request.method === 'HEAD' ? null : page, {
        headers: { ...securityHeaders({ nonce }), 'Content-Type': type, 'Cache-Control': 'no-store' },
      });
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      headers: { ...securityHeaders(), 'Content-Type': type },
    });
  };
}
