import { randomBytes } from 'node:crypto';

/**
 * The one Content Security Policy of the studio page, sent as a header by every host: the Electron
 * app:// protocol, the web host, and (for development) the Electron session in front of the
 * electron-vite dev server.
 *
 * - Scripts only from the page's own origin. 'wasm-unsafe-eval' lets the page compile WebAssembly (the
 *   text rasteriser, resvg, fetched from the page's own origin); it does not allow eval() or new
 *   Function, which stay refused.
 * - Style sheets from the page's own origin, plus the <style> elements the page inserts at run time
 *   (the component library builds its styles in the browser) when they carry this response's nonce.
 *   No other inline style element applies; style attributes in markup do not either (the page sets
 *   styles through the CSSOM, which a CSP does not govern).
 * - Connections only to the studio itself (the web host's bridge and events; the desktop app talks over
 *   IPC). The page fetches no media: waveforms are measured by the host (media.waveform). The one
 *   exception is live face swap's real-time client (agora-rtc-sdk-ng), which joins a real session's
 *   channel through the real-time service's gateways (REALTIME_GATEWAYS); the media itself flows over
 *   WebRTC, which connect-src does not govern.
 * - Pictures, sound and video from https and loopback, shown but never run: results live on the
 *   service's storage, whose host the interface does not name, users add media by any https link, and
 *   the built-in sandbox serves its files on a loopback port. Also data: pictures (video frames the
 *   host extracted) and blob: media (finished previews).
 * - No plugins, frames, workers, forms, <base>, or embedding in another page.
 */
const LOOPBACK = 'http://127.0.0.1:* http://localhost:*';

/** The real-time service's gateway, edge and statistics hosts, as agora-rtc-sdk-ng names them (its two domains). */
export const REALTIME_GATEWAYS = 'https://*.agora.io wss://*.agora.io https://*.sd-rtn.com wss://*.sd-rtn.com';

/** What renderer/index.html carries where each served copy of it gets a fresh nonce. */
export const CSP_NONCE_PLACEHOLDER = 'studio-csp-nonce';

export interface CspOptions {
  /** This response's nonce; without one, no inline <style> element applies. */
  nonce?: string;
  /** The electron-vite dev server injects styles for hot reload without a nonce. Development only. */
  devServer?: boolean;
}

export function studioCsp(options: CspOptions = {}): string {
  const runtimeStyles = options.devServer ? " 'unsafe-inline'" : options.nonce ? ` 'nonce-${options.nonce}'` : '';
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    `style-src 'self'${runtimeStyles}`,
    `img-src 'self' data: https: ${LOOPBACK}`,
    `media-src 'self' blob: https: ${LOOPBACK}`,
    "font-src 'self'",
    `connect-src 'self' ${REALTIME_GATEWAYS}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A fresh nonce for one response of the page. */
export function newCspNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** The page's HTML with this response's nonce where index.html carries the placeholder. */
export function pageWithNonce(html: string, nonce: string): string {
  return html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce);
}

/** Headers both hosts send with every response (the page's own response passes its nonce). */
export function securityHeaders(options: CspOptions = {}): Record<string, string> {
  return {
    'Content-Security-Policy': studioCsp(options),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // Camera and microphone stay possible for a feature that asks (the browser then prompts); the rest never.
    'Permissions-Policy': 'camera=(self), microphone=(self), geolocation=(), usb=(), serial=(), hid=(), payment=()',
  };
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = securityHeaders();
