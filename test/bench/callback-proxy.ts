// A pass-through in front of one worker's callback receiver, as the TLS proxy of scale-out.md stands in
// front of it, that counts what the receiver answered. The receiver keeps no counts of its own, and the
// worker is a process of its own, so its answers are counted on the way: 200 taken in (applied, or a
// duplicate of an end already seen), 409 refused as replayed or for another job, 503 "not yet" (the
// sandbox sends it again), anything else refused. The worker's listen address is known only once it
// listens (it is started with port 0), so the target is set after the proxy is.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CallbackCounts {
  /** Callbacks that reached the receiver (every try the sandbox made). */
  received: number;
  /** Answered 200: the receiver took it in. */
  taken: number;
  /** Answered 409: the same callback taken in before (replayed), or one naming another job. */
  replayed: number;
  /** Answered 503: the job's create was not answered yet, so the sandbox was asked to send it again. */
  notYet: number;
  /** Any other answer (401 forged or stale, 404 unknown token, …), or no answer. */
  refused: number;
}

export interface CallbackProxy {
  /** `http://127.0.0.1:PORT`: the worker's --callback-url is this and its own path. */
  url: string;
  /** Where the receiver listens, once the worker said so. Until then callbacks are answered 503. */
  target(port: number): void;
  counts(): CallbackCounts;
  close(): Promise<void>;
}

export async function callbackProxy(): Promise<CallbackProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const counts: CallbackCounts = { received: 0, taken: 0, replayed: 0, notYet: 0, refused: 0 };
  let port: number | null = null;

  const count = (status: number) => {
    if (status === 200) counts.taken += 1;
    else if (status === 409) counts.replayed += 1;
    else if (status === 503) counts.notYet += 1;
    else counts.refused += 1;
  };

  const pass = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    counts.received += 1;
    if (port === null) {
      count(503);
      outgoing.writeHead(503).end('the worker is not listening yet\n');
      return;
    }
    const forwarded = request(
      { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
      (answer) => {
        count(answer.statusCode ?? 0);
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      count(0);
      outgoing.destroy();
    });
    incoming.pipe(forwarded);
  };

  const server = createServer(pass);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const own = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${own}`,
    target: (receiverPort) => (port = receiverPort),
    counts: () => ({ ...counts }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
