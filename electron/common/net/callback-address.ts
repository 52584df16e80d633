import { classifyHost } from './address-rules';

/**
 * Where the service posts a job's callback (issue 69), and where the studio's callback receiver listens:
 * the one rule for `studio worker --callback-url/--callback-listen` and a connection's callback setting.
 * The address is https (plain http only to this machine) without a user, password, query or fragment,
 * since each job's token is added to its path; the listen address is HOST:PORT.
 */

/** Why `text` cannot be a callback address, or null when it can. */
export function callbackUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'is not an address';
  }
  const loopback = classifyHost(url.hostname) === 'loopback';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    return 'must be https:// (plain http:// only to this machine)';
  if (url.username || url.password) return 'must not carry a user or password';
  if (url.search || url.hash) return 'must have no ?query or #fragment';
  return null;
}

/** A callback address as it is kept: origin and path, no trailing slash (a job's token follows it). */
export function normalCallbackUrl(text: string): string {
  const url = new URL(text.trim());
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export interface ListenAddress {
  host: string;
  port: number;
}

const LISTEN = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** HOST:PORT (an IPv6 host in brackets), or why not. `minPort` 0 lets the system choose (a worker's). */
export function parseListenAddress(text: string, minPort = 1): ListenAddress | string {
  const match = LISTEN.exec(text.trim());
  if (!match) return 'must be HOST:PORT (an IPv6 host in brackets)';
  const port = Number(match[2]);
  if (port < minPort || port > 65535) return `its port must be ${minPort} to 65535`;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}
