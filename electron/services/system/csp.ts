/**
 * The one Content Security Policy of the studio page. The Electron main process and the web host send
 * it as a header; renderer/index.html carries the same text in a meta tag (a unit test keeps them
 * equal). Styles allow 'unsafe-inline' because the component library injects its style sheets at run
 * time; scripts never do. Media may come from the service's storage (https) and from the built-in sandbox
 * on a loopback port, and may be fetched from there (waveforms decode audio with fetch); it is never
 * run as script.
 */
const LOOPBACK = 'http://127.0.0.1:* http://localhost:*';

export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: https: ${LOOPBACK}`,
  `media-src 'self' blob: https: ${LOOPBACK}`,
  "font-src 'self' data:",
  `connect-src 'self' https: ${LOOPBACK}`,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "worker-src 'self' blob:",
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
