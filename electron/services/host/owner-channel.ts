import { createServer, type Socket } from 'node:net';
import { bridgeEvents, type BridgeOutcome, type EventChannel } from '../../common/bridge';
import type { EventListener } from './compose';
import { toFailure, type Dispatch } from './dispatcher';
import { takeNamedFile, type NamedFileImporters, type NamedFileUse } from './owner-files';
import { newOwnerToken, removeOwnerRecord, sameToken, writeOwnerRecord } from './owner-record';
import { ClientMessage, MAX_LINE_BYTES, MAX_MESSAGE_BYTES, readLines, writeLine } from './owner-wire';
import type { Logger } from './types';

export interface OwnerChannelOptions {
  dataDir: string;
  /** Who owns the folder, as a client's messages name it ("web host", "desktop app"). */
  kind: string;
  /** The owner's own dispatcher: every call is validated and answered as one from its page. */
  dispatch: Dispatch;
  subscribe(listener: EventListener): () => void;
  log: Logger;
  /**
   * Takes in the local files clients name (their command line's files), as the page's chosen files are
   * taken in. Without it a named file is refused: the owner then serves links only.
   */
  files?: NamedFileImporters;
  /** How long a connection may take to say hello before it is dropped. */
  helloMs?: number;
}

export interface OwnerChannel {
  port: number;
  /** Connections that showed the token and are still open (commands running through this owner). */
  clients(): number;
  /**
   * Takes no new connections and removes the record. An app quitting drops its clients (their jobs stay
   * in its ledger); a command-line run waits for them to end, since its engine follows their jobs.
   */
  close(options?: { waitForClients?: boolean }): Promise<void>;
}

const isEventChannel = (name: string): name is EventChannel => Object.hasOwn(bridgeEvents, name);

/**
 * Lets other `studio` processes run commands through the process that owns a data folder: a TCP
 * endpoint on 127.0.0.1 (nothing off this machine can reach it), recorded with a fresh token in the
 * folder's owner record (0600). A connection must show the token first; a wrong one is refused and
 * dropped. After that it sends bridge calls, which the owner's dispatcher validates and its own services
 * perform (the same engine, ledger and confirmation rules, so the jobs are in its Library at once), and
 * it receives the events it asked for (a job's progress). The record goes when the channel closes.
 */
export async function openOwnerChannel(options: OwnerChannelOptions): Promise<OwnerChannel> {
  const token = newOwnerToken();
  const sockets = new Set<Socket>();
  const welcomedSockets = new Set<Socket>();
  const server = createServer((socket) => serve(socket));

  function serve(socket: Socket): void {
    sockets.add(socket);
    let welcomed = false;
    let unsubscribe: (() => void) | undefined;
    const hello = setTimeout(() => drop('no hello'), options.helloMs ?? 10_000);
    hello.unref();
    const drop = (reason: string) => {
      options.log.warn('owner channel refused a connection', { reason });
      writeLine(socket, { t: 'refused', reason });
      socket.end();
      socket.destroy();
    };
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(hello);
      unsubscribe?.();
      sockets.delete(socket);
      welcomedSockets.delete(socket);
    });
    readLines(
      socket,
      (value) => {
        const parsed = ClientMessage.safeParse(value);
        if (!parsed.success) return drop("a message that is not one of the channel's");
        const message = parsed.data;
        if (!welcomed) {
          if (message.t !== 'hello' || !sameToken(message.token, token))
            return drop(message.t === 'hello' ? 'wrong token' : 'no hello');
          welcomed = true;
          welcomedSockets.add(socket);
          clearTimeout(hello);
          return writeLine(socket, { t: 'welcome', kind: options.kind, pid: process.pid });
        }
        if (message.t === 'hello') return;
        if (message.t === 'listen') {
          const wanted = new Set(message.events.filter(isEventChannel));
          unsubscribe?.();
          unsubscribe = options.subscribe((event, payload) => {
            if (wanted.has(event)) writeLine(socket, { t: 'event', event, payload });
          });
          return;
        }
        if (message.t === 'file') {
          void nameFile(message.path, message.use).then((outcome) =>
            writeLine(socket, { t: 'answer', id: message.id, outcome }),
          );
          return;
        }
        void options
          .dispatch(message.channel, message.args)
          .then((outcome) => writeLine(socket, { t: 'answer', id: message.id, outcome }));
      },
      drop,
      // Before its token a connection is nobody's: it may not make this process hold more than one line.
      () => (welcomed ? MAX_MESSAGE_BYTES : MAX_LINE_BYTES),
    );
  }

  /**
   * A file a client's user named is the one path the owner opens on a client's word: checked (absolute,
   * a regular file, within the size limit), then probed and granted as a file the user chose in the
   * page. Every later call may read it by the answered reference only; any other local reference stays
   * refused by the owner's grants.
   */
  async function nameFile(path: string, use: NamedFileUse): Promise<BridgeOutcome> {
    if (!options.files)
      return {
        ok: false,
        error: {
          message: `The ${options.kind} takes links only from other commands, not local files`,
          code: 'not-served',
        },
      };
    try {
      return { ok: true, value: await takeNamedFile(options.files, path, use) };
    } catch (error) {
      options.log.warn('owner channel refused a named file', {
        use,
        reason: error instanceof Error ? error.message : String(error),
      });
      return { ok: false, error: toFailure(error, (text) => text) };
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  writeOwnerRecord(options.dataDir, { kind: options.kind, port, token });
  options.log.info('owner channel listening', { port });

  return {
    port,
    clients: () => welcomedSockets.size,
    async close({ waitForClients = false } = {}) {
      removeOwnerRecord(options.dataDir);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A connection that never showed the token is nobody's command: it goes either way.
      for (const socket of sockets) if (!waitForClients || !welcomedSockets.has(socket)) socket.destroy();
      await closed;
    },
  };
}
