import type { Socket } from 'node:net';
import { z } from 'zod';
import { bridgeOutcomeSchema } from '../../common/bridge';
import { NamedFileUse } from './owner-files';

/**
 * The owner channel's messages: one JSON object per line. A client says hello with the token first,
 * then sends bridge calls (channel + argument list, validated by the owner's dispatcher exactly as a
 * call from its own page is), names the local files its command line named, and asks for the events it
 * wants to follow.
 */
export const ClientMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), token: z.string().max(200) }),
  z.object({
    t: z.literal('call'),
    id: z.number().int().nonnegative(),
    channel: z.string().max(200),
    args: z.array(z.unknown()).max(20),
  }),
  z.object({ t: z.literal('listen'), events: z.array(z.string().max(200)).max(50) }),
  // A local file the client's user named on its command line: the one kind of path the owner opens for it.
  z.object({
    t: z.literal('file'),
    id: z.number().int().nonnegative(),
    path: z.string().min(1).max(4096),
    use: NamedFileUse,
  }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export const OwnerMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('welcome'), kind: z.string(), pid: z.number() }),
  z.object({ t: z.literal('refused'), reason: z.string() }),
  z.object({ t: z.literal('answer'), id: z.number(), outcome: bridgeOutcomeSchema }),
  z.object({ t: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type OwnerMessage = z.input<typeof OwnerMessage>;

/** A line longer than this is no message of ours: the connection is dropped rather than buffered. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Splits a socket's bytes into lines and hands each parsed JSON value on; text that is not JSON, or a
 * line past MAX_LINE_BYTES, ends the connection (`onBad` says why).
 */
export function readLines(socket: Socket, onValue: (value: unknown) => void, onBad: (reason: string) => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() !== '') {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          onBad('a line that is not JSON');
          return;
        }
        onValue(value);
        if (socket.destroyed) return;
      }
      newline = pending.indexOf('\n');
    }
    if (Buffer.byteLength(pending) > MAX_LINE_BYTES) onBad('a line too long');
  });
}

export function writeLine(socket: Socket, message: ClientMessage | OwnerMessage): void {
  if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(message)}\n`);
}
