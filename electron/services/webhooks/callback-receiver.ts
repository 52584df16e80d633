import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '../../common/api';
import { openWebhook, WebhookError, type WebhookCredentials } from './webhook-crypto';

/** What the job side answered to an accepted callback. */
export type CallbackOutcome =
  /** It changed the job (a phase, a result). */
  | 'applied'
  /** It changed nothing: a duplicate, a late one for a finished job, one out of order. */
  | 'unchanged'
  /** The job's create has not been answered yet: the service is asked to send it again later. */
  | 'not-yet'
  /** It names another job than the one its token was made for. */
  | 'mismatch';

/** The jobs callbacks are for: a token names one job, sent through one connection. */
export interface CallbackJobs {
  lookup(token: string): { jobId: string; connectionId: string } | undefined;
  accept(jobId: string, event: WebhookEvent): CallbackOutcome;
}

export interface ReceiverLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface CallbackReceiverOptions {
  /** The one route, the callback URL's path (`/hooks`): callbacks come to `POST <path>/<token>`. */
  path: string;
  jobs: CallbackJobs;
  /** The credentials a connection's callbacks are sealed with; undefined: it has none that can. */
  credentials(connectionId: string): Promise<WebhookCredentials | undefined>;
  log: ReceiverLog;
  now?: () => number;
  /** Larger bodies are refused unread (413). Default 16 KiB: a callback is about 300 bytes. */
  maxBodyBytes?: number;
  /** A callback whose timestamp is further than this from now is refused, so an old one cannot be replayed. Default 15 min. */
  maxAgeMs?: number;
}

/** A token as `newCallbackToken` makes it: 32 random bytes, base64url. */
export const CALLBACK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Refusals are logged as at most this many lines a minute, then counted. */
const REFUSAL_LINES_PER_MINUTE = 5;

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * The callback receiver: the one server of the studio that may listen beyond loopback. It answers one
 * route, `POST <path>/<token>`, and nothing else. A callback changes a job only when its token names a
 * job this process sent, its signature verifies and it decrypts with that job's connection's
 * credentials (the one `openWebhook`), its timestamp is recent, its signature was not seen before, and
 * its `_id` is the job's. Forged, replayed, stale, oversized and unknown-token callbacks are refused
 * and logged without the token, the body or any secret.
 */
export class CallbackReceiver {
  private readonly server: Server;
  private readonly path: string;
  private readonly now: () => number;
  private readonly maxBodyBytes: number;
  private readonly maxAgeMs: number;
  /** Signatures of callbacks taken in, until their timestamp is too old to be accepted anyway. */
  private readonly seen = new Map<string, number>();
  private refusals = { minute: 0, lines: 0, unlogged: 0 };

  constructor(private readonly options: CallbackReceiverOptions) {
    this.path = options.path.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
    this.maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 15 * 60_000;
    this.server = createServer((req, res) => void this.handle(req, res));
    // A client that trickles its request is cut off: headers within 10 s, the whole request within 15 s.
    this.server.headersTimeout = 10_000;
    this.server.requestTimeout = 15_000;
  }

  /** Listens on `host:port` (port 0: any free one); answers the address taken. */
  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    return { host: address.address, port: address.port };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const { jobId, outcome } = await this.take(req);
      this.options.log.info('callback taken in', { job: jobId, outcome });
      const status = outcome === 'not-yet' ? 503 : 200;
      answer(res, status, outcome === 'not-yet' ? 'not yet: send it again later' : 'ok');
    } catch (error) {
      const refused = error instanceof Refused ? error : new Refused(500, 'the callback could not be handled');
      this.refused(refused, req);
      answer(res, refused.status, refused.reason);
      // An oversized body is not read: the connection goes with the answer.
      if (refused.status === 413) res.once('finish', () => req.destroy());
    }
  }

  private async take(req: IncomingMessage): Promise<{ jobId: string; outcome: CallbackOutcome }> {
    const url = req.url ?? '';
    const slash = url.lastIndexOf('/');
    const token = url.slice(slash + 1);
    if (url.slice(0, slash) !== this.path || !CALLBACK_TOKEN.test(token)) throw new Refused(404, 'no such route');
    if (req.method !== 'POST') throw new Refused(405, 'only POST');
    const job = this.options.jobs.lookup(token);
    if (!job) throw new Refused(404, 'unknown token');
    const body = await readBody(req, this.maxBodyBytes);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new Refused(400, 'the body is not JSON');
    }
    const credentials = await this.options.credentials(job.connectionId);
    if (!credentials) throw new Refused(503, "the job's connection has no client id and secret to verify callbacks");
    let event: WebhookEvent;
    try {
      event = openWebhook(json, credentials);
    } catch (error) {
      if (error instanceof WebhookError) throw new Refused(401, `refused: ${firstClause(error.message)}`);
      throw error;
    }
    // openWebhook checked the envelope's shape: these are a verified signature and its timestamp.
    const { signature, timestamp } = json as { signature: string; timestamp: number };
    const now = this.now();
    if (Math.abs(now - timestamp) > this.maxAgeMs) throw new Refused(401, 'refused: its timestamp is too old or ahead');
    this.forgetOld(now);
    const key = signature.toLowerCase();
    if (this.seen.has(key)) throw new Refused(409, 'refused: replayed (this callback was taken in before)');
    const outcome = this.options.jobs.accept(job.jobId, event);
    if (outcome === 'mismatch') {
      this.seen.set(key, timestamp + this.maxAgeMs);
      throw new Refused(409, "refused: it names another job than its token's");
    }
    // A callback answered "not yet" may come again as it was: only one taken in is remembered.
    if (outcome !== 'not-yet') this.seen.set(key, timestamp + this.maxAgeMs);
    return { jobId: job.jobId, outcome };
  }

  private forgetOld(now: number): void {
    for (const [signature, until] of this.seen) {
      // Insertion order is roughly timestamp order: stop at the first still kept.
      if (until >= now) break;
      this.seen.delete(signature);
    }
  }

  /** A few lines a minute, then a count: a flood of forgeries cannot fill the log. Never the token or the body. */
  private refused(refused: Refused, req: IncomingMessage): void {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.refusals.minute) {
      if (this.refusals.unlogged > 0)
        this.options.log.warn('callbacks refused and not logged one by one', { count: this.refusals.unlogged });
      this.refusals = { minute, lines: 0, unlogged: 0 };
    }
    if (this.refusals.lines >= REFUSAL_LINES_PER_MINUTE) {
      this.refusals.unlogged += 1;
      return;
    }
    this.refusals.lines += 1;
    this.options.log.warn('callback refused', {
      status: refused.status,
      reason: refused.reason,
      from: req.socket.remoteAddress ?? null,
      // Which token, without the token: enough to tell two refusals of one token apart.
      token: tokenTag(req.url ?? ''),
    });
  }
}

/** A short tag of the token a request names (a hash's first 8 hex digits), for logs. */
function tokenTag(url: string): string {
  return createHash('sha256')
    .update(url.slice(url.lastIndexOf('/') + 1))
    .digest('hex')
    .slice(0, 8);
}

/** A WebhookError's message up to its first colon: which check failed, not what the body held. */
function firstClause(message: string): string {
  return message.split(':')[0];
}

function answer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    connection: status === 413 ? 'close' : 'keep-alive',
  });
  res.end(`${text}\n`);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new Refused(413, 'the body is too large'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        reject(new Refused(413, 'the body is too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => reject(new Refused(400, 'the request broke off')));
  });
}
