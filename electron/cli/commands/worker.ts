import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { RedisCreateIntents } from '../../services/rows/queue/create-intents';
import { RedisBudget } from '../../services/rows/money/redis-budget';
import { RedisAccountCreates } from '../../services/rows/money/account-creates';
import { redisTarget } from '../../services/rows/queue/redis-target';
import { RowWorker } from '../../services/rows/queue/row-worker';
import { RedisLimiter } from '../../services/rows/rate/redis-limiter';
import { withStudio } from '../cli-host';
import { mediaStorageOption, useMediaStorage } from '../media-storage';
import { QUEUE_PASSWORD_FILE_OPTION, checkedQueue, queueUrlOf } from '../queue-url';
import { withinMs } from '../../services/rows/engine/within';
import { JSON_OPTION } from '../common-options';
import { CALLBACK_OPTIONS, workerCallbacks, type WorkerCallbacks } from '../worker-callbacks';
import { EXIT, RefusedError, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { stopSignals } from '../../services/host/stop-signals';
import { keepHeapNearLive } from '../worker-heap';
import { trimMallocEvery } from '../worker-trim';

/** `--queue URL`, as the commands that can send their rows to workers take it. */
export const QUEUE_OPTION = {
  name: '--queue',
  value: 'URL',
  help: 'make the rows on a queue (redis://HOST:PORT, no password: that goes in STUDIO_QUEUE_URL or --queue-password-file) by `studio worker` processes on any machine, instead of on this computer; this studio still saves its own copy of each',
} as const;

/** What the rows under way get to end once a worker is told to stop; a row still under way is then left. */
const STOP_GRACE_MS = 2_500;
/** A stop that has not ended the process by then ends it outright: nothing may hold a worker past 5 s. */
const STOP_LIMIT_MS = 4_500;

function queueOf(url: string | undefined): {
  url: string;
  shown: string;
  options: ReturnType<typeof redisTarget>['options'];
} {
  if (!url)
    throw new UsageError(
      'Give the queue the rows are sent to: --queue redis://HOST:PORT (its password in --queue-password-file FILE), or STUDIO_QUEUE_URL (with its password) in the environment',
    );
  try {
    const target = redisTarget(url);
    return { url, shown: target.shown, options: target.options };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * `studio worker`: makes the rows of queued campaigns with this connection (its credentials from the
 * environment, as every command reads them) until stopped. Each row's paid jobs were confirmed by whoever
 * queued the campaign; every create still goes through this studio's spending limit and the run's shared
 * intents, so a row is never paid for twice, on this worker or another.
 */
export const workerCommand: CliCommand = {
  name: 'worker',
  summary:
    "takes the rows of queued campaigns (campaign run --queue) from the queue at URL and makes them with this connection, saving each into DIR (and, with --bucket, into a storage's bucket), until Ctrl-C or SIGTERM (within 5 s: the rows under way get 2.5 s to end, then are left to another worker)",
  options: [
    {
      name: '--queue',
      value: 'URL',
      help: 'the Redis the rows are queued on (redis://HOST:PORT, no password: that goes in STUDIO_QUEUE_URL, which also serves without --queue, or --queue-password-file)',
    },
    QUEUE_PASSWORD_FILE_OPTION,
    {
      name: '--out',
      value: 'DIR',
      help: "where this worker saves the rows it makes (default: the data folder's worker-results)",
    },
    {
      name: '--bucket',
      value: 'STORAGE',
      help: 'also copy each campaign video saved to this storage\'s bucket, as <prefix><campaign id>/<file name>: a storage by name or id, usually "environment" (STUDIO_S3_*, whose keys stay on this machine). The manifest of the studio that queued the run gives each row\'s s3://bucket/key; a refused upload fails the row, which a retry saves from the video made, without paying again',
    },
    mediaStorageOption('the pictures this worker renders for a row (text, captions, music)'),
    {
      name: '--concurrency',
      value: 'N',
      help: 'rows made at once (default 32); each mostly waits for the service',
      range: { min: 1, max: 256, integer: true },
    },
    {
      name: '--lock-seconds',
      value: 'N',
      help: "how long a row stays this worker's without a word from it (default 30): a killed worker's rows go to another within about twice this",
      range: { min: 2, max: 600, integer: true },
    },
    {
      name: '--name',
      value: 'NAME',
      help: 'how this worker is named on the queue (its workers panel) and in the intents it writes',
    },
    {
      name: '--rate',
      value: 'N',
      help: "the requests a second the account allows: every worker given it shares it through the queue's Redis (without it each worker learns the pace from the service's 1005 answers)",
      range: { min: 2, max: 10_000 },
    },
    ...CALLBACK_OPTIONS,
    JSON_OPTION,
  ],
  async run(args, io: CliIo) {
    // A worker runs for days: its memory follows what it holds, not where V8's collector stands.
    keepHeapNearLive();
    const queue = queueOf(queueUrlOf(args, io));
    // Heard from the command's start: a stop while it checks the queue or opens its data folder counts too.
    const signals = stopSignals({ say: io.err, what: 'The worker', limitMs: STOP_LIMIT_MS, code: EXIT.failed });
    // glibc keeps the pages freed below a block in use: hand them back every 30 s (worker-trim.ts).
    const stopTrim = trimMallocEvery();
    try {
      // Before anything else: a queue that cannot be used is said within seconds, not by minutes of silence.
      await checkedQueue(queue.url, io);
      // Never a sandbox the user did not name: its rows would be priced on one service and made on another.
      if (flag(args, '--base-url') === undefined && flag(args, '--connection') === undefined)
        throw new UsageError(
          "A worker makes rows for one service: name it with --base-url URL (its key in STUDIO_API_KEY, or STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET) or --connection NAME (--connection Sandbox for this data folder's own sandbox)",
        );
      const callbacks = await workerCallbacks(args, io);
      try {
        return await work(args, io, queue, signals.asked, callbacks);
      } finally {
        await callbacks?.close();
      }
    } finally {
      stopTrim?.();
      signals.dispose();
    }
  },
};

/** The worker once its queue passed the check: its data folder, its row makers, the rows until a stop. */
async function work(
  args: ParsedArgs,
  io: CliIo,
  queue: ReturnType<typeof queueOf>,
  stopAsked: Promise<string>,
  callbacks: WorkerCallbacks | null,
) {
  const id = flag(args, '--name') ?? `${hostname()}-${process.pid}`;
  const records = new Redis(queue.options);
  records.on('error', () => undefined);
  try {
    const intents = new RedisCreateIntents(records, { worker: id });
    const rate = flag(args, '--rate');
    // A 1005 holds the queue's takes too (BullMQ's rate limit): no worker starts a row while the account says "too frequent".
    let holdTakes: (ms: number) => void = () => undefined;
    const limiter = new RedisLimiter(records, {
      perSecond: rate === undefined ? null : Number(rate),
      held: (ms) => holdTakes(ms),
    });
    return await withStudio(
      args,
      io,
      'writes',
      async (studio) => {
        if (!studio.rowMakers)
          throw new RefusedError(
            `A worker needs its data folder to itself, and the ${studio.kind} (process ${studio.pid}) has it open: give the worker its own with --data-dir.`,
          );
        const folder = resolve(io.cwd, flag(args, '--out') ?? join(studio.dataDir, 'worker-results'));
        const concurrency = Number(flag(args, '--concurrency') ?? 32);
        const bucket = flag(args, '--bucket');
        const makers = await studio.rowMakers(folder, bucket).catch((error: unknown) => {
          throw new UsageError(`--bucket ${bucket}: ${error instanceof Error ? error.message : String(error)}`);
        });
        await useMediaStorage(studio, flag(args, '--media-storage'));
        const account = studio.rowAccount;
        const media = studio.rowMedia;
        const lock = flag(args, '--lock-seconds');
        const stallMs = lock === undefined ? undefined : Number(lock) * 1000;
        const worker = new RowWorker({
          url: queue.url,
          makers,
          id,
          concurrency,
          stallMs,
          account,
          media,
          refused: io.err,
        });
        worker.start();
        holdTakes = (ms) => void worker.holdTakes(ms);
        const copied = bucket === undefined ? '' : ` and copied to the storage "${bucket}"`;
        io.err(
          `Worker ${id} takes rows from ${queue.shown}; what it makes is saved in ${folder}${copied}. Ctrl-C stops it.`,
        );
        if (callbacks) io.err(`Worker ${id}: ${callbacks.shown}; a job whose callback is overdue is polled.`);
        const signal = await stopAsked;
        io.err(
          `${signal}: taking no more rows; the rows under way get ${STOP_GRACE_MS / 1000} s to end, then are left to another worker.`,
        );
        await worker.stopWithin(STOP_GRACE_MS);
        if (args.flags['--json'] === true)
          io.out(JSON.stringify({ worker: id, queue: queue.shown, folder, bucket: bucket ?? null, stoppedBy: signal }));
        return EXIT.ok;
      },
      {
        shared: { intents, budget: new RedisBudget(records), creates: new RedisAccountCreates(records) },
        limiter,
        callbacks: callbacks?.callbacks,
      },
    );
  } finally {
    // Never waits on a Redis that has gone (its client would hold the command for ever).
    await withinMs(records.quit(), 300);
    records.disconnect();
  }
}
