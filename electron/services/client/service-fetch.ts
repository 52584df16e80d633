import { request } from 'undici';

/** What the service transport reads of an answer: a subset of fetch's Response, so a test's fetch still fits. */
export interface ServiceAnswer {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type ServiceFetch = (
  url: string,
  // `redirect: 'error'` for a fetch given in its place (a test's): this one refuses redirects itself.
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal; redirect: 'error' },
) => Promise<ServiceAnswer>;

/**
 * One request to the service with undici's `request`, the client under Node's fetch without the web
 * streams and the spec's bookkeeping around it: a worker sends about six service requests a row, and
 * fetch took three times the CPU for each (docs/performance.md). It keeps the two things the transport
 * relies on from fetch:
 * - a failure before any answer throws an error whose `code` says why (ECONNREFUSED: never sent;
 *   UND_ERR_SOCKET: dropped after it may have arrived), which the transport reads to know whether a
 *   create may have been acted on;
 * - a redirect is an error, not an answer: the service never redirects, and a create sent again
 *   elsewhere could be paid twice. Like fetch's `redirect: 'error'`, it throws without a code.
 */
export const serviceFetch: ServiceFetch = async (url, init) => {
  const answer = await request(url, {
    method: init.method as 'GET' | 'POST',
    headers: init.headers,
    body: init.body,
    signal: init.signal,
  });
  const status = answer.statusCode;
  if (status >= 300 && status < 400) {
    await answer.body.dump().catch(() => undefined);
    throw new TypeError(`the service answered with a redirect (${status}), which is refused`);
  }
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: {
      get: (name) => {
        const value = answer.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: () => answer.body.text(),
  };
};
