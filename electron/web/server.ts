import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { WEB_BRIDGE_PATHS, type EventChannel, type EventPayloads } from '../common/bridge';
import type { ComposedHost } from '../services/host/compose';
import { SECURITY_HEADERS, newCspNonce, pageWithNonce, securityHeaders } from '../services/system/csp';
import { cookieName, decideAccess } from './access';
import { RefusalLog } from './refusal-log';
import { serveSavedFiles } from './saved-files';
import { serveExportFiles } from './export-files';
import { limitBodyTime, type BodyDeadlineOptions } from '../services/host/body-deadline';

export interface WebServerOptions {
  services: Pick<ComposedHost, 'dispatch' | 'subscribe' | 'base'> & {
    domains: Pick<ComposedHost['domains'], 'importFile' | 'importSheet' | 'savedFile' | 'exportFile'>;
  };
  rendererDir: string;
  token: string;
  /** 0 picks a free port. */
  port: number;
  /** How long a request may take to arrive (defaults in services/host/body-deadline.ts); tests shorten it. */
  bodyTime?: BodyDeadlineOptions;
}

export interface WebServer {
  app: FastifyInstance;
  port: number;
  /** Full address including the access token. */
  url: string;
  close(): Promise<void>;
}

const REFUSED_PAGE = (reason: string) =>
  `Avatar Studio refused this request (${reason}). Open the full address that "npm run web" printed; it contains the access token.\n`;

/**
 * One event to a page's stream, unless the stream has ended: the host ends every stream as it closes, and
 * the quit's last steps (a create held back, its record removed) still emit events. A write after the end
 * raises an error event on the response, and one nobody hears ends the host before those steps are on disk.
 */
function writeEvent(raw: ServerResponse, event: string, payload: unknown): void {
  if (raw.writableEnded || raw.destroyed) return;
  raw.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
}

/**
 * The web host's HTTP server on 127.0.0.1: the built renderer, the bridge as one POST per call, and
 * host events as server-sent events. Every request passes the Host/Origin/token check first.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  if (!existsSync(join(options.rendererDir, 'index.html'))) {
    throw new Error(`The renderer is not built: ${join(options.rendererDir, 'index.html')} is missing`);
  }
  const app = Fastify({ logger: false, bodyLimit: 2 * 1024 * 1024, forceCloseConnections: true });
  let port = options.port;
  /** Each page's event stream and how to stop it (its subscription and keep-alive dropped, the stream ended). */
  const sseClients = new Map<ServerResponse, () => void>();
  const refusals = new RefusalLog((message, fields) => options.services.base.log.warn(message, fields));
  limitBodyTime(app, options.bodyTime);

  app.addHook('onRequest', async (request, reply) => {
    const query = request.query as Record<string, unknown> | undefined;
    const decision = decideAccess(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        cookie: request.headers.cookie,
        queryToken: typeof query?.token === 'string' ? query.token : undefined,
      },
      { token: options.token, port },
    );
    if (!decision.ok) {
      refusals.refused(decision.reason, request.url.split('?')[0]);
      return reply
        .code(decision.status)
        .headers(SECURITY_HEADERS)
        .type('text/plain; charset=utf-8')
        .send(REFUSED_PAGE(decision.reason));
    }
    if (decision.via === 'query') {
      reply.header('Set-Cookie', `${cookieName(port)}=${options.token}; Path=/; HttpOnly; SameSite=Strict`);
      // Take the token out of the address the page lives at, now that the cookie carries it.
      if (request.method === 'GET' && request.url.split('?')[0] === '/') return reply.redirect('/', 302);
    }
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    // The page's own response already carries its CSP with this response's nonce.
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });

  // The page itself: each copy gets a fresh nonce, in its CSP and in the meta tag the page reads it from.
  const page = async (_request: unknown, reply: FastifyReply) => {
    const nonce = newCspNonce();
    const html = await readFile(join(options.rendererDir, 'index.html'), 'utf8');
    return reply
      .headers({ ...securityHeaders({ nonce }), 'Cache-Control': 'no-store' })
      .type('text/html; charset=utf-8')
      .send(pageWithNonce(html, nonce));
  };
  app.get('/', page);
  app.get('/index.html', page);

  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const message = status === 500 ? 'The web host failed to answer' : (error.message ?? 'Bad request');
    reply.code(status).send({ ok: false, error: { message, code: 'bad-request' } });
  });

  app.post<{ Params: { channel: string } }>(`${WEB_BRIDGE_PATHS.call}:channel`, async (request) => {
    return options.services.dispatch(request.params.channel, request.body);
  });

  // A dropped local file: the page sends its bytes (it cannot name a path); the answer is a granted reference.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const takeIn = (path: string, take: (name: string, body: Readable) => Promise<unknown>) =>
      scope.put<{ Params: { name: string } }>(`${path}:name`, async (request) => {
        try {
          return { ok: true, value: await take(request.params.name, request.body as Readable) };
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          return {
            ok: false,
            error: { message: (error as Error).message, code: typeof code === 'string' ? code : 'import-failed' },
          };
        }
      });
    takeIn(WEB_BRIDGE_PATHS.importFile, (name, body) => options.services.domains.importFile(name, body));
    takeIn(WEB_BRIDGE_PATHS.importSheet, (name, body) => options.services.domains.importSheet(name, body));
  });

  serveSavedFiles(app, (id) => options.services.domains.savedFile(id));
  serveExportFiles(app, (id) => options.services.domains.exportFile(id));

  app.get(WEB_BRIDGE_PATHS.events, (request, reply) => {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    raw.write(': connected\n\n');
    const unsubscribe = options.services.subscribe(<E extends EventChannel>(event: E, payload: EventPayloads[E]) =>
      writeEvent(raw, event, payload),
    );
    const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
    const stop = () => {
      clearInterval(keepAlive);
      unsubscribe();
      sseClients.delete(raw);
      raw.end();
    };
    sseClients.set(raw, stop);
    // A page gone mid-write (its socket reset) is a stream to stop, not a reason for the host to fail.
    raw.on('error', stop);
    request.raw.on('close', stop);
  });

  await app.register(fastifyStatic, {
    root: options.rendererDir,
    index: false,
    cacheControl: false,
    setHeaders(res, path) {
      res.setHeader('Cache-Control', path.endsWith('.html') ? 'no-store' : 'public, max-age=31536000, immutable');
    },
  });

  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  if (address && typeof address === 'object') port = address.port;

  return {
    app,
    port,
    url: `http://127.0.0.1:${port}/?token=${options.token}`,
    async close() {
      for (const stop of [...sseClients.values()]) stop();
      await app.close();
    },
  };
}
