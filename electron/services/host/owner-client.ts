import { connect, type Socket } from 'node:net';
import type { CallChannel, EventChannel, EventPayloads, StudioApi } from '../../common/bridge';
import { ChosenSheet } from '../../common/bridge/batches';
import { ChosenMedia } from '../../common/bridge/media';
import type { NamedFileUse } from './owner-files';
import { liveOwnerRecord } from './owner-record';
import { OwnerMessage, readLines, writeLine } from './owner-wire';

/** A failed call through the owner: the owner's message and code, as its page would see them. */
export class OwnerCallError extends Error {
  override name = 'OwnerCallError';
  constructor(
    message: string,
    readonly code: string | number | undefined,
  ) {
    super(message);
  }
}

/** The owner answered the token with a refusal, or dropped the connection. */
export class OwnerRefusedError extends Error {
  override name = 'OwnerRefusedError';
}

/** A connection to the process that owns a data folder, speaking the bridge contract. */
export interface OwnerLink {
  /** Who owns the folder ("web host", "desktop app"). */
  kind: string;
  pid: number;
  call<C extends CallChannel>(
    channel: C,
    ...args: Parameters<StudioApi[C]>
  ): Promise<Awaited<ReturnType<StudioApi[C]>>>;
  /**
   * Hands the owner a local file this command's user named (an absolute path): the owner checks it and
   * takes it in as its page takes a chosen file, and answers the reference later calls use for it.
   */
  nameFile(path: string, use: 'media'): Promise<ChosenMedia>;
  nameFile(path: string, use: 'sheet'): Promise<ChosenSheet>;
  /** Follows the owner's events of the given channels (replaces an earlier choice). */
  listen(
    events: readonly EventChannel[],
    handler: <E extends EventChannel>(event: E, payload: EventPayloads[E]) => void,
  ): void;
  /** Rejects when the connection is lost (the owner quit): what waits on events races it. */
  lost: Promise<never>;
  close(): void;
}

function open(port: number): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(socket));
    // Refused (the owner is gone and its port free) or anything else: no owner to talk to.
    socket.once('error', () => resolve(null));
  });
}

/**
 * Connects to the data folder's owner, or answers null when there is none to reach: no record, a
 * record of a process that has exited, or an endpoint that refuses the connection (all stale). An owner
 * that is reached but refuses the token throws OwnerRefusedError: that is not a stale record.
 */
export async function reachOwner(dataDir: string): Promise<OwnerLink | null> {
  const record = liveOwnerRecord(dataDir);
  if (!record) return null;
  const socket = await open(record.port);
  if (!socket) return null;
  return handshake(socket, record.token);
}

/** Says hello with `token` on an open connection and returns the link once the owner welcomes it. */
export function handshake(socket: Socket, token: string): Promise<OwnerLink> {
  const answers = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let eventHandler: ((event: EventChannel, payload: unknown) => void) | undefined;
  let closed: Error | undefined;
  let lose: (error: Error) => void = () => {};
  const lost = new Promise<never>((_, reject) => (lose = reject));
  // Nobody may be waiting when the link goes; those who are get the rejection through their own race.
  lost.catch(() => undefined);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      closed ??= error;
      lose(closed);
      for (const waiting of answers.values()) waiting.reject(closed);
      answers.clear();
      reject(closed);
    };
    const closedByOwner = () =>
      new OwnerRefusedError(
        'The studio that has the data folder open closed the connection (it may have quit). A job already sent stays in its Library; `studio jobs wait ID` follows it.',
      );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      // A write after the owner went (a broken pipe, a reset) is its closing, not a fault of the line.
      fail(
        error.code === 'EPIPE' || error.code === 'ECONNRESET'
          ? closedByOwner()
          : new OwnerRefusedError(`The connection to the data folder's owner failed: ${error.message}`),
      ),
    );
    socket.on('close', () => fail(closedByOwner()));
    readLines(
      socket,
      (value) => {
        const parsed = OwnerMessage.safeParse(value);
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.t === 'refused')
          fail(new OwnerRefusedError(`The data folder's owner refused this command: ${message.reason}.`));
        else if (message.t === 'welcome') resolve(link(message.kind, message.pid));
        else if (message.t === 'event') eventHandler?.(message.event as EventChannel, message.payload);
        else {
          const waiting = answers.get(message.id);
          answers.delete(message.id);
          if (!waiting) return;
          const outcome = message.outcome;
          if (outcome.ok) waiting.resolve(outcome.value);
          else waiting.reject(new OwnerCallError(outcome.error.message, outcome.error.code));
        }
      },
      (reason) => {
        fail(new OwnerRefusedError(`The data folder's owner sent ${reason}.`));
        socket.destroy();
      },
    );
    writeLine(socket, { t: 'hello', token });

    function link(kind: string, pid: number): OwnerLink {
      return {
        kind,
        pid,
        lost,
        call(channel, ...given) {
          if (closed) return Promise.reject(closed);
          const id = nextId++;
          // JSON has no undefined: an optional argument left out at the end is left out, not sent as null.
          const args: unknown[] = [...given];
          while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
          return new Promise((done, refuse) => {
            answers.set(id, { resolve: done as (value: unknown) => void, reject: refuse });
            writeLine(socket, { t: 'call', id, channel, args });
          });
        },
        nameFile: ((path: string, use: NamedFileUse) => {
          if (closed) return Promise.reject(closed);
          const id = nextId++;
          const schema = use === 'media' ? ChosenMedia : ChosenSheet;
          return new Promise<unknown>((done, refuse) => {
            answers.set(id, {
              resolve: (value) => {
                const parsed = schema.safeParse(value);
                if (parsed.success) done(parsed.data);
                else
                  refuse(
                    new OwnerCallError(
                      "The data folder's owner answered a named file with something that is not a file reference",
                      'invalid',
                    ),
                  );
              },
              reject: refuse,
            });
            writeLine(socket, { t: 'file', id, path, use });
          });
        }) as OwnerLink['nameFile'],
        listen(events, handler) {
          eventHandler = handler as (event: EventChannel, payload: unknown) => void;
          writeLine(socket, { t: 'listen', events: [...events] });
        },
        close() {
          closed ??= new OwnerRefusedError('closed');
          socket.end();
          socket.destroy();
        },
      };
    }
  });
}
