import type { FetchLike } from '../../../electron/services/client';

export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Reply = Response | Error | ((request: SeenRequest, signal: AbortSignal) => Promise<Response> | Response);

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function ok(data: unknown): Response {
  return json({ code: 1000, msg: 'success', data });
}

export function fail(code: number, msg = 'failed', headers: Record<string, string> = {}): Response {
  return json({ code, msg }, 200, headers);
}

/** An error shaped like undici's fetch failure with a socket-level code. */
export function socketError(code: string): Error {
  return Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
}

/** A fetch that answers from a script, one entry per request, and records what it saw. */
export function scriptedFetch(script: Reply[]): { fetch: FetchLike; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    const request: SeenRequest = {
      url,
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    seen.push(request);
    const next = script.shift();
    if (next === undefined) throw new Error(`unexpected request ${request.method} ${url}`);
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next(request, init.signal as AbortSignal);
    return next;
  };
  return { fetch, seen };
}

export const voice = {
  _id: 'v1',
  create_time: 1,
  uid: 1,
  from: 3,
  voice_id: 'voice-1',
  gender: 'female',
  accent: 'en',
  name: 'Ada',
  description: '',
  useCase: '',
  type: 1,
  preview: 'https://x.test/p.mp3',
  __v: 0,
};

/** Never answers; fails like fetch does once the request's signal aborts. */
export function hang(_request: SeenRequest, signal: AbortSignal): Promise<Response> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')));
  });
}

/** A voiceover's create, and the record the service answers it with. */
export const ttsBody = { input_text: 'Hello there', voice_id: 'voice-1', rate: '50%' };
export const audio = {
  _id: 'a1',
  create_time: 1,
  uid: 1,
  from: 1,
  input_text: 'Hello there',
  rate: '50%',
  voice_model_id: 'voice-1',
  url: '',
  status: 1,
};
