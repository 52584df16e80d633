import type { Readable } from 'node:stream';
import { request } from 'undici';

/** What the studio reads of an answer: a subset of fetch's Response, so a test's fetch still fits. */
export interface LightAnswer {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface LightInit {
  method: string;
  headers?: Record<string, string>;
  /** A text, or a file's bytes as they are read (fetch takes the same stream with `duplex: 'half'`). */
  body?: string | Readable;
  signal?: AbortSignal;
  // For a fetch given in this one's place (a test's): this one refuses redirects itself.
  redirect?: 'error';
  duplex?: 'half';
}

export type LightFetch = (url: string, init: LightInit) => Promise<LightAnswer>;

/**
 * One request to the service or the sandbox's storage with undici's `request`: the client under Node's
 * fetch, without the web streams and the spec's bookkeeping around it. A worker sends about six service
 * requests and two uploads a row, and fetch took three times the CPU for each (docs/performance.md).
 * It keeps what its callers rely on from fetch:
 * - a failure before any answer throws an error whose `code` says why (ECONNREFUSED: never sent;
 *   UND_ERR_SOCKET: dropped after it may have arrived), which the transport reads to know whether a
 *   create may have been acted on;
 * - a redirect is an error, not an answer: the service never redirects, and a create sent again
 *   elsewhere could be paid twice. Like fetch's `redirect: 'error'`, it throws without a code.
 */
export const lightFetch: LightFetch = async (url, init) => {
  const answer = await request(url, {
    method: init.method as 'GET' | 'POST' | 'PUT',
    headers: init.headers,
    body: init.body,
    signal: init.signal,
  });
  const status = answer.statusCode;
  if (status >= 300 && status < 400) {
    await answer.body.dump().catch(() => undefined);
    throw new TypeError(`the answer was a redirect (${status}), which is refused`);
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
