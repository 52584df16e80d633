import { randomBytes } from 'node:crypto';
import { sameToken } from '../services/host/owner-record';

/** A fresh access token: 32 random bytes, URL-safe. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface AccessRequest {
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
  /** The `token` query parameter, if the address carried one. */
  queryToken: string | undefined;
}

export type AccessDecision = { ok: true; via: 'query' | 'cookie' } | { ok: false; status: 401 | 403; reason: string };

export function cookieName(port: number): string {
  // Cookies ignore ports, so two hosts on one machine must not share a name.
  return `studio_access_${port}`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A malformed value (`%`) is no token: 401, not an exception and a 500.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Decides whether a request may reach the web host. A foreign Host header (DNS rebinding) or Origin
 * header (another site's page) is refused before the token is even looked at; then the token must come
 * from the address (first visit) or from the cookie set on that visit.
 */
export function decideAccess(request: AccessRequest, expected: { token: string; port: number }): AccessDecision {
  const hosts = [`127.0.0.1:${expected.port}`, `localhost:${expected.port}`];
  if (!request.host || !hosts.includes(request.host.toLowerCase())) {
    return { ok: false, status: 403, reason: 'foreign Host header' };
  }
  if (request.origin !== undefined && !hosts.some((h) => request.origin === `http://${h}`)) {
    return { ok: false, status: 403, reason: 'foreign Origin header' };
  }
  if (request.queryToken !== undefined && sameToken(request.queryToken, expected.token))
    return { ok: true, via: 'query' };
  const fromCookie = readCookie(request.cookie, cookieName(expected.port));
  if (fromCookie !== undefined && sameToken(fromCookie, expected.token)) return { ok: true, via: 'cookie' };
  return {
    ok: false,
    status: 401,
    reason: request.queryToken !== undefined || fromCookie !== undefined ? 'wrong access token' : 'no access token',
  };
}
