import { isIP } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeIssues, ENDPOINTS, type EndpointName, type EndpointSpec, Code } from '../common/api';
import { classifyHost } from '../common/net/address-rules';
import type { EmulatorContext } from './context';
import { ApiError, MediaError } from './errors';
import { sleep } from './jobs/webhooks';
import type { Caller } from './state/accounts';
import { limitBodyTime } from '../services/host/body-deadline';

export const BODY_LIMIT = 20 * 1024 * 1024;

type EnvelopeKind = EndpointSpec['envelope'];

/** The failure body in the envelope the route uses; business codes also travel beside face-detection envelopes. */
export function failureBody(kind: EnvelopeKind, code: number, msg: string): Record<string, unknown> {
  if (kind === 'face-detection') return { error_code: 1, error_msg: msg, code, msg };
  if (kind === 'analyze-frames') return { success: false, error: msg, code, msg };
  return { code, msg };
}

/**
 * A Host header that is localhost or an IP address (any port), or the name the sandbox was told to
 * listen on. DNS rebinding needs a name of the attacker's, so those are refused.
 */
export function hostAllowed(header: string | undefined, boundHost: string): boolean {
  if (!header) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${header}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (classifyHost(hostname) === 'loopback' || isIP(hostname) !== 0) return true;
  return hostname === boundHost.toLowerCase();
}

const isApiPath = (url: string) => !/^\/(files|sandbox|__sandbox)\//.test(url);

export function createServer(ctx: EmulatorContext): FastifyInstance {
  const app = Fastify({ bodyLimit: BODY_LIMIT, logger: false, return503OnClosing: true, forceCloseConnections: true });
  // The interface speaks JSON only: a text body is refused (415) rather than read as a string.
  app.removeContentTypeParser('text/plain');
  limitBodyTime(app, ctx.options.bodyTime);

  // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own name as Host.
  app.addHook('onRequest', async (request, reply) => {
    if (!hostAllowed(request.headers.host, ctx.options.host)) {
      return reply.code(403).send({
        code: Code.ParameterError,
        msg: 'Host header is not this sandbox (use 127.0.0.1, localhost or the address it listens on)',
      });
    }
  });

  // Fault injection and latency apply to the interface, not to file downloads or the control routes.
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url)) return;
    const f = ctx.faults;
    if (f.dropRequest()) {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (f.rates.latencyMs > 0) await sleep(f.rates.latencyMs);
    if (f.answer503()) {
      return reply
        .code(503)
        .type('text/html')
        .send('<html><body>503 Service Unavailable (sandbox fault injection)</body></html>');
    }
    if (f.answer1005()) throw new ApiError(Code.TooFrequent, 'Operation too frequent (sandbox fault injection)');
  });

  // The ambiguous case: the create was carried out, then the connection dies before the answer leaves.
  const creates = new Set(
    Object.values(ENDPOINTS)
      .filter((spec) => spec.creates)
      .map((spec) => spec.path),
  );
  app.addHook('onSend', async (request, reply, payload) => {
    if (creates.has(request.url.split('?')[0]) && ctx.faults.dropAfterCreate()) request.raw.socket.destroy();
    return payload;
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string | number }, request, reply) => {
    const kind = envelopeOf(request);
    if (error instanceof ApiError || error instanceof MediaError)
      return reply.code(200).send(failureBody(kind, error.code, error.message));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .code(413)
        .send(failureBody(kind, Code.ParameterError, `Request body is larger than ${BODY_LIMIT / 1024 / 1024} MB`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(failureBody(kind, Code.ParameterError, 'Content-Type must be application/json'));
    }
    // A range past the end of a result file (a resumed download that already had every byte) is a 416,
    // as a CDN answers; it is not a request body the sandbox could not read.
    if (error.statusCode === 416) return reply.code(416).send();
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const msg =
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'Request body is empty; send a JSON object'
          : `Request body is not valid JSON: ${error.message}`;
      return reply.code(400).send(failureBody(kind, Code.ParameterError, msg));
    }
    ctx.options.log(`internal error on ${request.method} ${request.url.split('?')[0]}: ${error.message}`);
    return reply
      .code(500)
      .send(failureBody(kind, Code.VideoProcessingError, `Sandbox internal error: ${error.message}`));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send({ code: Code.ContentNotFound, msg: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` });
  });
  return app;
}

function envelopeOf(request: FastifyRequest): EnvelopeKind {
  const config = request.routeOptions.config as { envelope?: EnvelopeKind } | undefined;
  return config?.envelope ?? 'business';
}

/** `types[]=a&types[]=b` → `{ types: [a, b] }`; other keys unchanged. */
export function normaliseQuery(query: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const prev = out[name];
      const list = Array.isArray(value) ? value : [value];
      out[name] = Array.isArray(prev) ? [...prev, ...list] : list;
    } else out[key] = value;
  }
  return out;
}

export type Handler<N extends EndpointName> = (
  input: z.infer<(typeof ENDPOINTS)[N]['request']>,
  caller: Caller,
  request: FastifyRequest,
) => Promise<unknown>;

/**
 * Registers one operation of the interface: authenticates, rate-limits, validates the input with the
 * shared request schema (1003 naming the field), and wraps the result in the operation's envelope.
 */
export function defineEndpoint<N extends EndpointName>(
  app: FastifyInstance,
  ctx: EmulatorContext,
  name: N,
  handler: Handler<N>,
  alsoAt: string[] = [],
): void {
  const spec: EndpointSpec = ENDPOINTS[name];
  for (const url of [spec.path, ...alsoAt]) routeEndpoint(app, ctx, name, spec, url, handler);
}

function routeEndpoint<N extends EndpointName>(
  app: FastifyInstance,
  ctx: EmulatorContext,
  name: N,
  spec: EndpointSpec,
  url: string,
  handler: Handler<N>,
): void {
  app.route({
    method: spec.method,
    url,
    config: { envelope: spec.envelope },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const caller = spec.authenticated
        ? ctx.accounts.authenticate(request.headers)
        : { account: ctx.accounts.account, credential: 'anonymous' };
      ctx.accounts.checkRate(caller.credential);
      const raw = spec.input === 'body' ? (request.body ?? {}) : normaliseQuery(request.query);
      if (spec.input === 'body' && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
        throw new ApiError(Code.ParameterError, 'Request body must be a JSON object');
      }
      const parsed = spec.request.safeParse(raw);
      if (!parsed.success) throw new ApiError(Code.ParameterError, describeIssues(parsed.error));
      const result = await handler(parsed.data as z.infer<(typeof ENDPOINTS)[N]['request']>, caller, request);
      const body = spec.envelope === 'business' && name !== 'getToken' ? success(result) : result;
      const check = spec.response.safeParse(body);
      if (!check.success)
        ctx.options.log(`response of ${name} does not match its schema: ${describeIssues(check.error)}`);
      return reply.code(200).send(body);
    },
  });
}

export function success(data: unknown): Record<string, unknown> {
  return data === undefined ? { code: Code.Success, msg: 'OK' } : { code: Code.Success, msg: 'OK', data };
}
