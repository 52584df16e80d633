/**
 * The one Content Security Policy of the studio page. The Electron main process and the web host send
 * it as a header; renderer/index.html carries the same text in a meta tag (a unit test keeps them
 * equal). What it allows, and why nothing less would do:
 * - Scripts only from the studio itself, never inline, never eval.
 * - Connections only to the studio itself (the web host's bridge and events; the desktop app talks over
 *   IPC). The page fetches no media: waveforms are measured by the host (media.waveform).
 * - Pictures, video and sound from https and loopback, shown but never run: results live on the
 *   service's storage, whose host the interface does not name, users add media by any https link, and
 *   the built-in sandbox serves its files on a loopback port.
 * - Styles allow 'unsafe-inline': the component library (naive-ui, through css-render) writes its
 *   style sheets at run time and cannot give them a nonce (tusen-ai/naive-ui#6356). Style cannot run
 *   code, so this is the one inline allowance.
 */
const LOOPBACK = 'http://127.0.0.1:* http://localhost:*';

export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: https: ${LOOPBACK}`,
  `media-src 'self' blob: https: ${LOOPBACK}`,
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
].join('; ');

/** Header-only directives (a meta tag cannot carry them). */
export const STUDIO_CSP_HEADER = `${STUDIO_CSP}; frame-ancestors 'none'`;

/** Headers both hosts send with every response. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': STUDIO_CSP_HEADER,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // Camera and microphone stay possible for a feature that asks (the browser then prompts); the rest never.
  'Permissions-Policy': 'camera=(self), microphone=(self), geolocation=(), usb=(), serial=(), hid=(), payment=()',
};
