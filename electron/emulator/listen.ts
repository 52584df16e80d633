import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Code } from '../common/api';

/** Listens on `port`; when it is taken and `fallback` is set, on a free port instead. Returns the port. */
export async function listenOnce(app: FastifyInstance, port: number, host: string, fallback: boolean): Promise<number> {
  try {
    await app.listen({ port, host });
  } catch (error) {
    if (!fallback || port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await app.listen({ port: 0, host });
  }
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : port;
}

const isFileLink = (url: string | undefined) => /^\/(files|sandbox)\//.test(url ?? '');

/**
 * Serves the sandbox's own files (and nothing else) on ports an earlier run of the same data folder
 * listened on, so links saved then keep opening in any program. A port someone else holds now is
 * skipped: the sandbox still reads such links from disk when a job uses them.
 */
export async function serveEarlierPorts(
  app: FastifyInstance,
  ports: number[],
  host: string,
  log: (line: string) => void,
): Promise<Server[]> {
  const forward = (request: IncomingMessage, response: ServerResponse) => {
    if (!isFileLink(request.url)) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          code: Code.ContentNotFound,
          msg: 'Only result files are served on an earlier port of the sandbox',
        }),
      );
      return;
    }
    app.server.emit('request', request, response);
  };
  const servers: Server[] = [];
  for (const port of ports) {
    const server = createServer(forward);
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, host, () => resolve(true));
    });
    if (listening) servers.push(server);
    else log(`earlier port ${port} is taken by another program; links to it are read from disk by jobs only`);
  }
  return servers;
}

export async function closeServers(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
}
