import type { AuthProvider } from './auth';
import { backoffDelay, parseRetryAfter, realSleep, type BackoffPolicy, type Random, type Sleep } from './backoff';
import type { Clock } from './clock';
import type { RequestLimiter } from './limiter';
import { MemoryLimiter } from './memory-limiter';
import { ServiceError } from './errors';
import { Code, isAuthCode } from '../../common/api';
import { lightFetch, type LightAnswer } from '../net/light-fetch';

/** What the transport sends: it fits lightFetch and a test's fetch alike. */
export interface ServiceInit {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  redirect?: 'error';
}

/** The transport's client: lightFetch, or a test's fetch. */
export type FetchLike = (url: string, init: ServiceInit) => Promise<LightAnswer>;

/**
 * read: safe to send again (lists, info lookups, token exchange).
 * create: costs money and the service has no idempotency key, so it is sent again only after answers
 * that prove the service did not act on it (rate limit 1005, refused token 1101, refused connection).
 */
export type RequestMode = 'read' | 'create';

export type QueryValue = string | number | boolean | ReadonlyArray<string | number> | undefined;

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  mode: RequestMode;
  /** Validates the decoded JSON (after the envelope code check); throws to reject it. */
  parse: (json: unknown) => T;
  /** false for the token exchange itself. */
  authenticated?: boolean;
  /**
   * false for the face endpoints, whose own envelopes carry the outcome: a business code beside it is
   * acted on here only when it means "slow down" or "credentials refused".
   */
  businessEnvelope?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Told when each attempt leaves, after its turn at the connection's limiter. */
  onSent?: (at: number) => void;
  /**
   * Asked the moment before each attempt leaves (after its turn and its headers): false keeps it here,
   * nothing sent (`aborted`, not ambiguous). Unlike `signal`, it never stops a request already on its way.
   */
  stillGoes?: () => boolean;
}

export interface TransportOptions {
  baseUrl: string;
  auth?: AuthProvider;
  fetch?: FetchLike;
  clock?: Clock;
  sleep?: Sleep;
  random?: Random;
  timeoutMs?: number;
  /** Attempts for reads (and for creates refused with 1005), including the first. */
  maxAttempts?: number;
  retry?: BackoffPolicy;
  /** HTTP statuses that prove a create was not acted on (load shedding before the application). */
  createSafeStatuses?: readonly number[];
  /** Where every attempt takes its turn and a 1005 is told (the host's choice); default: one learned in memory. */
  limiter?: RequestLimiter;
}

export const defaultRetryPolicy: BackoffPolicy = { baseMs: 500, capMs: 15_000, factor: 2, jitter: 0.5 };

/** Error codes from the socket layer meaning the request never left this machine. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(`${key}[]`, String(item));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

interface AttemptFailure {
  error: ServiceError;
  /** The limiter's turn of an attempt that went (a refusal is told with it). */
  turnAt?: number;
  /** May the same request be sent again? */
  retryable: boolean;
  refreshToken?: boolean;
}

/**
 * Sends one logical request: authentication, per-request timeout, cancellation, envelope check,
 * schema validation, and the retry rules above. Every failure is a ServiceError.
 */
export class Transport {
  readonly baseUrl: string;
  private readonly fetch: FetchLike;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly random: Random;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly retry: BackoffPolicy;
  private readonly createSafeStatuses: ReadonlySet<number>;
  private readonly limiter: RequestLimiter;

  constructor(private readonly options: TransportOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.baseUrl);
    } catch {
      throw new ServiceError({
        kind: 'config',
        endpoint: '(base URL)',
        detail: `"${options.baseUrl}" is not a valid URL`,
      });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ServiceError({
        kind: 'config',
        endpoint: '(base URL)',
        detail: 'the base URL must start with http:// or https://',
      });
    }
    if (parsed.username || parsed.password) {
      throw new ServiceError({
        kind: 'config',
        endpoint: '(base URL)',
        detail: 'the base URL must not contain credentials',
      });
    }
    this.baseUrl = options.baseUrl;
    this.fetch = options.fetch ?? lightFetch;
    this.clock = options.clock ?? { now: () => Date.now() };
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 4;
    this.retry = options.retry ?? defaultRetryPolicy;
    this.createSafeStatuses = new Set(options.createSafeStatuses ?? [429, 503]);
    this.limiter = options.limiter ?? new MemoryLimiter(() => this.clock.now(), this.sleep);
  }

  /** Whether the connection's rate holds its requests back now (RequestLimiter.scarce). */
  turnsScarce(): boolean {
    return this.limiter.scarce();
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    let refreshed = false;
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await this.attempt(spec);
      if (outcome.ok) {
        this.limiter.answered();
        return outcome.value;
      }
      const failure = outcome.failure;
      // The one place a refusal is learned from: the limiter, which every request of the connection asks.
      if (failure.error.code === Code.TooFrequent && failure.turnAt !== undefined)
        await this.limiter.refused(failure.turnAt);
      else if (failure.error.kind === 'service' || failure.error.kind === 'http') this.limiter.answered();
      if (failure.refreshToken && !refreshed && this.options.auth?.refresh && spec.authenticated !== false) {
        refreshed = true;
        await this.options.auth.refresh(spec.signal);
        attempt -= 1;
        continue;
      }
      if (!failure.retryable || attempt + 1 >= this.maxAttempts || spec.signal?.aborted) throw failure.error;
      const wait = failure.error.retryAfterMs ?? backoffDelay(attempt, this.retry, this.random);
      try {
        await this.sleep(wait, spec.signal);
      } catch {
        throw new ServiceError({ kind: 'aborted', endpoint: spec.path });
      }
    }
  }

  private async attempt<T>(
    spec: RequestSpec<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; failure: AttemptFailure }> {
    const endpoint = spec.path;
    const isCreate = spec.mode === 'create';
    if (spec.signal?.aborted)
      return { ok: false, failure: { error: new ServiceError({ kind: 'aborted', endpoint }), retryable: false } };

    const headers: Record<string, string> = { Accept: 'application/json' };
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    if (spec.authenticated !== false && this.options.auth)
      Object.assign(headers, await this.options.auth.headers(spec.signal));
    // The turn as late as can be, so that it is close to when the request reaches the service.
    let turnAt: number;
    try {
      turnAt = await this.limiter.turn(spec.signal);
    } catch {
      return { ok: false, failure: { error: new ServiceError({ kind: 'aborted', endpoint }), retryable: false } };
    }
    // The last moment before the request leaves: nothing awaits from here to the fetch.
    if (spec.stillGoes && !spec.stillGoes()) {
      const held = new ServiceError({ kind: 'aborted', endpoint, detail: 'held back before it was sent' });
      return { ok: false, failure: { error: held, retryable: false } };
    }
    spec.onSent?.(this.clock.now());

    // One controller for the caller's abort and the timeout. Not AbortSignal.any: each call of it hangs a
    // dependent on the caller's signal, and the job scheduler passes one signal to every poll it makes.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), spec.timeoutMs ?? this.timeoutMs);
    const forwardAbort = (): void => stop.abort();
    spec.signal?.addEventListener('abort', forwardAbort, { once: true });
    // Aborted while the headers were awaited: the listener came too late to hear it.
    if (spec.signal?.aborted) stop.abort();
    const signal = stop.signal;
    const stopped = (): ServiceError =>
      spec.signal?.aborted
        ? new ServiceError({ kind: 'aborted', endpoint, ambiguous: isCreate })
        : new ServiceError({ kind: 'timeout', endpoint, ambiguous: isCreate });

    let response: LightAnswer;
    let text: string;
    try {
      try {
        response = await this.fetch(buildUrl(this.baseUrl, spec.path, spec.query), {
          method: spec.method,
          headers,
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          signal,
          redirect: 'error',
        });
      } catch (error) {
        if (signal.aborted)
          return { ok: false, failure: { error: stopped(), retryable: !isCreate && !spec.signal?.aborted } };
        const code = causeCode(error);
        const notSent = code !== undefined && NOT_SENT_CODES.has(code);
        const ambiguous = isCreate && !notSent;
        return {
          ok: false,
          failure: {
            error: new ServiceError({ kind: 'network', endpoint, ambiguous, detail: code ? `(${code})` : undefined }),
            retryable: !ambiguous,
          },
        };
      }
      try {
        text = await response.text();
      } catch {
        const error = signal.aborted
          ? stopped()
          : new ServiceError({ kind: 'network', endpoint, ambiguous: isCreate, detail: 'the answer was cut off' });
        return { ok: false, failure: { error, retryable: !isCreate && !spec.signal?.aborted } };
      }
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', forwardAbort);
    }

    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.clock.now());
    let json: unknown;
    try {
      json = text.length === 0 ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const envelope = json && typeof json === 'object' ? (json as { code?: unknown; msg?: unknown }) : undefined;
    const code = typeof envelope?.code === 'number' ? envelope.code : undefined;
    const serviceMessage = typeof envelope?.msg === 'string' ? envelope.msg.slice(0, 500) : undefined;

    const ownEnvelope =
      spec.businessEnvelope === false && code !== Code.TooFrequent && !(code !== undefined && isAuthCode(code));
    if (code !== undefined && code !== Code.Success && !ownEnvelope) {
      const error = new ServiceError({
        kind: 'service',
        endpoint,
        code,
        serviceMessage,
        retryAfterMs,
        httpStatus: response.ok ? undefined : response.status,
      });
      return {
        ok: false,
        failure: { error, retryable: code === Code.TooFrequent, refreshToken: code === Code.InvalidToken, turnAt },
      };
    }
    if (!response.ok) {
      const status = response.status;
      const safeForCreate = this.createSafeStatuses.has(status);
      const serverSide = status >= 500 || status === 429;
      const ambiguous = isCreate && status >= 500 && !safeForCreate;
      const error = new ServiceError({ kind: 'http', endpoint, httpStatus: status, ambiguous, retryAfterMs });
      return {
        ok: false,
        failure: { error, retryable: serverSide && (!isCreate || safeForCreate), refreshToken: status === 401 },
      };
    }
    try {
      return { ok: true, value: spec.parse(json) };
    } catch (problem) {
      if (problem instanceof ServiceError) return { ok: false, failure: { error: problem, retryable: false } };
      const detail = problem instanceof Error ? problem.message.slice(0, 300) : undefined;
      // A create the service accepted but whose answer we cannot read may still have been charged.
      return {
        ok: false,
        failure: {
          error: new ServiceError({ kind: 'malformed', endpoint, ambiguous: isCreate, detail }),
          retryable: false,
        },
      };
    }
  }
}
