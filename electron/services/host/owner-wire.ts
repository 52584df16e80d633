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
 * A message whose line would be longer than this goes in parts: each part is a line of its own carrying
 * this many bytes of the message's JSON (base64, so a cut never splits a character), and the reader
 * joins them. Lines stay bounded however large an answer is (a ledger of thousands of jobs, a campaign
 * of 100,000 rows), where one line per answer failed past MAX_LINE_BYTES. Parts were chosen over raising
 * the line limit: any limit on one line is a limit on an answer, and a reply cannot be paged by a caller
 * that does not know it will be large.
 */
export const PART_BYTES = 1024 * 1024;

/**
 * The most a message sent in parts may add up to. The answer must become one string to be parsed, and
 * V8 holds a string of at most about 512 MiB, so this is the real ceiling made explicit: a peer that
 * sends more is dropped before it fills this process's memory.
 */
export const MAX_MESSAGE_BYTES = 512 * 1024 * 1024;

/** One part of a message too long for a line; the last one says `end`. */
const Part = z.object({ t: z.literal('part'), data: z.string(), end: z.boolean().optional() });

/**
 * Splits a socket's bytes into lines and hands each parsed JSON value on (a message sent in parts
 * joined first); text that is not JSON, a line past MAX_LINE_BYTES, or parts past `maxMessageBytes()`
 * (asked as each part comes: an owner allows more once a client showed its token) end the connection
 * (`onBad` says why).
 */
export function readLines(
  socket: Socket,
  onValue: (value: unknown) => void,
  onBad: (reason: string) => void,
  maxMessageBytes: () => number = () => MAX_MESSAGE_BYTES,
): void {
  let pending = '';
  let parts: Buffer[] = [];
  let partBytes = 0;
  const take = (line: string): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      onBad('a line that is not JSON');
      return false;
    }
    const part = Part.safeParse(value);
    if (!part.success) {
      onValue(value);
      return true;
    }
    const bytes = Buffer.from(part.data.data, 'base64');
    partBytes += bytes.length;
    if (partBytes > maxMessageBytes()) {
      onBad('a message too long');
      return false;
    }
    parts.push(bytes);
    if (!part.data.end) return true;
    const whole = Buffer.concat(parts).toString('utf8');
    parts = [];
    partBytes = 0;
    return take(whole);
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() !== '') {
        if (!take(line)) return;
        if (socket.destroyed) return;
      }
      newline = pending.indexOf('\n');
    }
    // A character is one to three bytes here: the exact count is needed only near the limit.
    if (pending.length * 3 > MAX_LINE_BYTES && Buffer.byteLength(pending) > MAX_LINE_BYTES) onBad('a line too long');
  });
}

export function writeLine(socket: Socket, message: ClientMessage | OwnerMessage): void {
  if (socket.destroyed || !socket.writable) return;
  const line = JSON.stringify(message);
  // Most messages are short: only one that may pass a part's size is measured and cut.
  if (line.length * 3 <= PART_BYTES || Buffer.byteLength(line) <= PART_BYTES) {
    socket.write(`${line}\n`);
    return;
  }
  const bytes = Buffer.from(line, 'utf8');
  for (let at = 0; at < bytes.length; at += PART_BYTES) {
    const data = bytes.subarray(at, at + PART_BYTES).toString('base64');
    const end = at + PART_BYTES >= bytes.length;
    socket.write(`${JSON.stringify(end ? { t: 'part', data, end } : { t: 'part', data })}\n`);
  }
}
