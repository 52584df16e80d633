// A pass-through in front of the sandbox that counts what reaches it. The scale bench's studio and
// workers are processes of their own, so their clients cannot be handed a counting fetch as the
// campaigns bench's host is: each is given this proxy's address as its --base-url instead. Result
// files keep the sandbox's own address, so downloads go around it and only interface calls are counted.
// The sandbox is the run's storage too (a row's pictures go to `/__sandbox/uploads/`): requests to its
// own routes are passed on and counted apart, since they are a bucket's, not the service's (the
// sandbox does not hold them to its rate, and with a real service they go to S3, not to its address).
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  url: string;
  /** Interface requests passed on (the service's, held to its rate; the sandbox's own are not among them). */
  requests(): number;
  /** Requests to the sandbox's own routes (`/__sandbox/…`: a row's pictures put in its storage, its prices). */
  sandboxOwn(): number;
  /** Of them, asks after a job's state. */
  polls(): number;
  /** Answers that were code 1005 (too frequent). */
  rateLimited(): number;
  /** Requests by path (the query left out; uploads under one `/__sandbox/uploads/…`), for where the requests per row go. */
  byPath(): Map<string, number>;
  /** When each interface request arrived (performance.now()), for how many any second held. */
  arrivals(): readonly number[];
  /** When the first request arrived (performance.now()), or null. */
  firstAt(): number | null;
  close(): Promise<void>;
}

/** The sandbox's own routes (its storage, its prices), which are not the service's interface. */
const SANDBOX_OWN = '/__sandbox/';
const UPLOADS = '/__sandbox/uploads/';

/** Code 1005 in the sandbox's envelope, however the JSON is spaced. */
const TOO_FREQUENT = /"code"\s*:\s*1005\b/;

export async function countingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  // Kept-alive sockets: tens of thousands of requests would otherwise open as many connections.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let requests = 0;
  let sandboxOwn = 0;
  let polls = 0;
  let rateLimited = 0;
  let first: number | null = null;
  const paths = new Map<string, number>();
  const arrivals: number[] = [];

  const pass = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    first ??= performance.now();
    const whole = (incoming.url ?? '').split('?')[0];
    // Each row's picture has a name of its own: one line for them all, not one per row.
    const path = whole.startsWith(UPLOADS) ? `${UPLOADS}…` : whole;
    paths.set(path, (paths.get(path) ?? 0) + 1);
    if (whole.startsWith(SANDBOX_OWN)) sandboxOwn += 1;
    else {
      arrivals.push(performance.now());
      requests += 1;
    }
    if (path.includes('/infobymodelid')) polls += 1;
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (TOO_FREQUENT.test(body.toString('utf8'))) rateLimited += 1;
          const headers = { ...answer.headers };
          delete headers['transfer-encoding'];
          outgoing.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': body.length });
          outgoing.end(body);
        });
        answer.on('error', () => outgoing.destroy());
      },
    );
    // A dropped connection on either side is passed on as one: the client sees what the sandbox did.
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  };

  const server = createServer(pass);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    sandboxOwn: () => sandboxOwn,
    polls: () => polls,
    rateLimited: () => rateLimited,
    byPath: () => new Map(paths),
    arrivals: () => arrivals,
    firstAt: () => first,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** The most of `times` (ms, any order) inside any window of `ms`. */
export function mostInAnyWindow(times: readonly number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= ms) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/**
 * Requests a second in each tenth of [from, to]: where a run left the rate unused (a slow start, a
 * sag in the middle, a long tail) rather than only how much.
 */
export function perSecondByTenth(times: readonly number[], from: number, to: number): number[] {
  const tenth = (to - from) / 10;
  const counts = Array.from({ length: 10 }, () => 0);
  for (const t of times) if (t >= from && t <= to) counts[Math.min(9, Math.floor((t - from) / tenth))]++;
  return counts.map((n) => n / (tenth / 1000));
}
