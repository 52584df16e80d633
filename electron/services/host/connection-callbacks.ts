import { parseListenAddress } from '../../common/net/callback-address';
import { JobCallbacks } from '../jobs/job-callbacks';
import type { WebhookCredentials } from '../webhooks/webhook-crypto';
import { CallbackReceiver, type CallbackReceiverOptions, type ReceiverLog } from '../webhooks/callback-receiver';

/** What the callbacks read of the connections (ConnectionManager, or a route the host chose). */
export interface CallbackConnections {
  active(): Promise<{ id: string; name: string }>;
  /** The connection's callback setting; null: its jobs are polled. */
  callbacksOf(id: string): { url: string; listen: string } | null;
  /** Its client id and secret, which the service seals callbacks with; undefined for an API key. */
  clientCredentials(id: string): Promise<WebhookCredentials | undefined>;
}

export interface ConnectionCallbacksDeps {
  connections: CallbackConnections;
  log: ReceiverLog;
  newReceiver?: (options: CallbackReceiverOptions) => CallbackReceiver;
}

interface Running {
  connectionId: string;
  url: string;
  listen: string;
  /** The address taken (the port the system chose for a port 0). */
  address: { host: string; port: number };
  receiver: CallbackReceiver;
}

/**
 * The desktop app's and the web host's callbacks instead of polling (issue 69), composed here in the
 * host layer: one callback receiver, for the active connection when the user gave it a callback setting
 * and it has a client id and secret. While it listens, every create on that connection carries
 * `<url>/<a job's token>` (`jobs`, the engine's callbacks) and its jobs are polled only once a callback
 * is overdue; creates on any other connection, or while it cannot listen, carry none and are polled.
 * `reconcile` is called after each change of the connections and once at the start, one at a time.
 */
export class ConnectionCallbacks {
  readonly jobs: JobCallbacks;
  private running: Running | null = null;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ConnectionCallbacksDeps) {
    this.jobs = new JobCallbacks({
      url: (connectionId) => (this.running?.connectionId === connectionId ? this.running.url : null),
    });
  }

  /** Where the receiver listens now, or null. */
  listening(): { host: string; port: number } | null {
    return this.running?.address ?? null;
  }

  /**
   * Starts, moves or stops the receiver to match the active connection's setting. Rejects with a
   * sentence for the user when the setting cannot be served (no client secret, a port in use); the
   * receiver is then stopped and the connection's jobs are polled.
   */
  reconcile(): Promise<void> {
    const next = this.turn.then(() => this.apply());
    this.turn = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.turn;
    await this.stop();
  }

  private async apply(): Promise<void> {
    const { connections } = this.deps;
    const { id, name } = await connections.active();
    const setting = connections.callbacksOf(id);
    const credentials = setting ? await connections.clientCredentials(id) : undefined;
    const running = this.running;
    const same = running?.connectionId === id && running.url === setting?.url && running.listen === setting.listen;
    if (same && credentials) return;
    await this.stop();
    if (!setting) return;
    if (!credentials)
      throw new Error(
        `Callbacks on "${name}" need its client id and secret, which the service seals them with: an API key alone cannot open them. Add them, or clear the callback address; its jobs are polled meanwhile.`,
      );
    const listen = parseListenAddress(setting.listen, 0);
    if (typeof listen === 'string') throw new Error(`The callback listen address of "${name}" ${listen}.`);
    const receiver = (this.deps.newReceiver ?? ((options) => new CallbackReceiver(options)))({
      path: new URL(setting.url).pathname,
      jobs: this.jobs,
      credentials: (connectionId) => connections.clientCredentials(connectionId),
      log: this.deps.log,
    });
    let address: Running['address'];
    try {
      address = await receiver.listen(listen.host, listen.port);
    } catch (error) {
      throw new Error(listenProblem(name, setting.listen, error));
    }
    this.running = { connectionId: id, url: setting.url, listen: setting.listen, address, receiver };
    this.deps.log.info('callback receiver listening', { connection: name, listen: setting.listen });
  }

  private async stop(): Promise<void> {
    const running = this.running;
    this.running = null;
    await running?.receiver.close();
  }
}

/** Why the receiver could not listen, in words: a port in use above all. */
function listenProblem(name: string, listen: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why =
    code === 'EADDRINUSE'
      ? 'the port is in use by another program. Choose another port, or stop the program that has it'
      : code === 'EACCES'
        ? 'this user may not listen on that port (ports below 1024 need privileges). Choose a port from 1024 up'
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? 'this machine has no such address. Use 127.0.0.1, or an address of this machine'
          : error instanceof Error
            ? error.message
            : String(error);
  return `The callback receiver of "${name}" cannot listen on ${listen}: ${why}; its jobs are polled meanwhile.`;
}
