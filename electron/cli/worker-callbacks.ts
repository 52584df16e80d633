import {
  callbackUrlProblem,
  normalCallbackUrl,
  parseListenAddress,
  type ListenAddress,
} from '../common/net/callback-address';
import { JobCallbacks } from '../services/jobs/job-callbacks';
import { CallbackReceiver } from '../services/webhooks/callback-receiver';
import { BASE_URL_CONNECTION_ID } from './cli-route';
import { RefusedError, UsageError, flag, type CliIo, type ParsedArgs } from './command';

export const CALLBACK_OPTIONS = [
  {
    name: '--callback-url',
    value: 'URL',
    help: "where the service calls back about each job this worker creates (https://HOST/PATH, as the service reaches the receiver, usually a TLS proxy in front of --callback-listen); each job's own token is added to it. Jobs are then polled only once a callback is overdue. Needs --base-url with STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET, which verify and decrypt the callbacks",
  },
  {
    name: '--callback-grace',
    value: 'SECONDS',
    help: "how long past a job's expected end its callback may take before the job is polled (default 3): more where callbacks come late (a slow proxy, a busy machine)",
    range: { min: 1, max: 3_600 },
  },
  {
    name: '--callback-listen',
    value: 'HOST:PORT',
    help: 'where the callback receiver listens (its one route is the path of --callback-url); the one server a worker may open beyond this machine',
  },
] as const;

/** `--callback-url` by the one rule a connection's setting follows too (common/net/callback-address.ts). */
function callbackUrlOf(text: string): string {
  const problem = callbackUrlProblem(text);
  if (problem) throw new UsageError(`--callback-url ${problem}`);
  return normalCallbackUrl(text);
}

/** `--callback-listen HOST:PORT`; port 0 lets the system choose one. */
function listenAddressOf(text: string): ListenAddress {
  const listen = parseListenAddress(text, 0);
  if (typeof listen === 'string') throw new UsageError(`--callback-listen ${listen}`);
  return listen;
}

export interface WorkerCallbacks {
  callbacks: JobCallbacks;
  /** Where the receiver listens, as a line for the worker's start message. */
  shown: string;
  close(): Promise<void>;
}

/**
 * The callback receiver of `studio worker --callback-url URL --callback-listen HOST:PORT`, listening
 * before the worker takes a row; null without them. Its credentials are the environment's client id
 * and secret, the ones the service seals callbacks with: an API key alone cannot open them.
 */
export async function workerCallbacks(args: ParsedArgs, io: CliIo): Promise<WorkerCallbacks | null> {
  const urlText = flag(args, '--callback-url');
  const listenText = flag(args, '--callback-listen');
  if (urlText === undefined && listenText === undefined) {
    if (flag(args, '--callback-grace') !== undefined)
      throw new UsageError('--callback-grace needs --callback-url and --callback-listen: without them jobs are polled');
    return null;
  }
  if (urlText === undefined || listenText === undefined)
    throw new UsageError('Give --callback-url and --callback-listen together');
  const url = callbackUrlOf(urlText);
  const listen = listenAddressOf(listenText);
  if (flag(args, '--base-url') === undefined)
    throw new UsageError(
      '--callback-url needs --base-url: its callbacks are verified with the environment credentials',
    );
  const clientId = io.env.STUDIO_CLIENT_ID?.trim();
  const clientSecret = io.env.STUDIO_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret)
    throw new UsageError(
      '--callback-url needs STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET in the environment: the service seals its callbacks with them',
    );
  const grace = flag(args, '--callback-grace');
  const callbacks = new JobCallbacks({ url, ...(grace !== undefined && { graceMs: Number(grace) * 1000 }) });
  const verbose = args.flags['--verbose'] === true;
  const line = (message: string, fields?: Record<string, unknown>) =>
    io.err(`${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  const receiver = new CallbackReceiver({
    path: new URL(url).pathname,
    jobs: callbacks,
    credentials: async (connectionId) =>
      connectionId === BASE_URL_CONNECTION_ID ? { clientId, clientSecret } : undefined,
    log: { info: (message, fields) => verbose && line(message, fields), warn: line },
  });
  let address: { host: string; port: number };
  try {
    address = await receiver.listen(listen.host, listen.port);
  } catch (error) {
    throw new RefusedError(
      `The callback receiver cannot listen on ${listenText}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    callbacks,
    shown: `callbacks to ${url}/… are received on ${address.host}:${address.port}`,
    close: () => receiver.close(),
  };
}
