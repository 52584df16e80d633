import { z } from 'zod';
import {
  bridgeCalls,
  isCallChannel,
  type BridgeCalls,
  type BridgeFailure,
  type BridgeOutcome,
} from '../../common/bridge';
import type { Handlers, Logger } from './types';

export interface DispatcherDeps {
  handlers: Handlers<BridgeCalls>;
  log: Logger;
  /** Removes registered secrets from a text (the log's redactor). */
  redact: (text: string) => string;
}

export type Dispatch = (channel: unknown, args: unknown) => Promise<BridgeOutcome>;

function describeIssues(channel: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid arguments for ${channel}`;
  const [position, ...rest] = issue.path;
  const where =
    typeof position === 'number' ? `argument ${position + 1}${rest.length ? ` (${rest.join('.')})` : ''}` : 'arguments';
  return `Invalid ${where} for ${channel}: ${issue.message}`;
}

/** Turns anything thrown by a handler into what may cross to the renderer: a message and a code, no stack. */
export function toFailure(error: unknown, redact: (text: string) => string): BridgeFailure {
  if (error instanceof Error) {
    const { code, kind } = error as { code?: unknown; kind?: unknown };
    const failure: BridgeFailure = { message: redact(error.message || error.name) };
    if (typeof code === 'string' || typeof code === 'number')
      failure.code = typeof code === 'string' ? redact(code) : code;
    else if (typeof kind === 'string') failure.code = kind;
    return failure;
  }
  return { message: redact(typeof error === 'string' ? error : 'Unexpected failure') };
}

/**
 * The one entry point every host (Electron IPC, web host HTTP) sends calls through: the channel must be
 * known, the arguments must match the channel's schema, and the answer is always an outcome envelope.
 */
export function createDispatcher({ handlers, log, redact }: DispatcherDeps): Dispatch {
  return async (channel, args) => {
    if (!isCallChannel(channel)) {
      const shown = typeof channel === 'string' ? redact(channel.slice(0, 80)) : typeof channel;
      return { ok: false, error: { message: `Unknown bridge call "${shown}"`, code: 'unknown-channel' } };
    }
    const parsed = bridgeCalls[channel].args.safeParse(args);
    if (!parsed.success) {
      const message = redact(describeIssues(channel, parsed.error));
      log.warn('bridge call refused', { channel, reason: message });
      return { ok: false, error: { message, code: 'invalid-arguments' } };
    }
    const handler = handlers[channel] as (...a: unknown[]) => Promise<unknown>;
    try {
      const value = await handler(...(parsed.data as unknown[]));
      return { ok: true, value };
    } catch (error) {
      const failure = toFailure(error, redact);
      log.warn('bridge call failed', { channel, message: failure.message, code: failure.code });
      return { ok: false, error: failure };
    }
  };
}
