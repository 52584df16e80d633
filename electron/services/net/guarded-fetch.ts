import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { fetchTargetProblem, hostProblem } from '../../common/net/address-rules';

/** A fetch the address rules refused (the target or a redirect points at an internal address). */
export class RefusedTargetError extends Error {
  override name = 'RefusedTargetError';
}

export interface GuardOptions {
  fetch?: typeof fetch;
  /** Also refuse private network ranges (10/8, 172.16/12, 192.168/16, fc00::/7): the sandbox's rule. */
  refusePrivate?: boolean;
  /** Every address a host name resolves to (injected in tests). */
  resolve?: (hostname: string) => Promise<string[]>;
  maxRedirects?: number;
}

const resolveAll = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true })).map((a) => a.address);

/**
 * fetch that refuses link-local and cloud-metadata targets (and, with refusePrivate, internal
 * networks): by the URL, by every address its host name resolves to, and again at each redirect,
 * which it follows itself. Loopback and public addresses stay allowed (tests and users serve media
 * from them).
 */
export async function guardedFetch(url: string, init: RequestInit = {}, options: GuardOptions = {}): Promise<Response> {
  const fetchImpl = options.fetch ?? fetch;
  let current = url;
  for (let hop = 0; ; hop += 1) {
    await assertAllowedTarget(current, options);
    const response = await fetchImpl(current, { ...init, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop >= (options.maxRedirects ?? 5))
      throw new RefusedTargetError(`too many redirects from ${new URL(url).origin}`);
    current = new URL(location, current).href;
  }
}

export async function assertAllowedTarget(
  url: string,
  options: Pick<GuardOptions, 'refusePrivate' | 'resolve'> = {},
): Promise<void> {
  const problem = fetchTargetProblem(url, options);
  if (problem) throw new RefusedTargetError(problem);
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname)) return;
  const addresses = await (options.resolve ?? resolveAll)(hostname).catch(() => [] as string[]);
  for (const address of addresses) {
    const resolved = hostProblem(address, options);
    if (resolved) throw new RefusedTargetError(`${hostname} resolves to ${resolved}`);
  }
}
