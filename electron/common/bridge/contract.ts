import { z } from 'zod';

/**
 * One bridge call: the schema of its argument list (validated by every host before the handler runs)
 * and the schema of its result (used for typing, and checked by the contract tests).
 */
export interface CallSpec<A extends z.ZodTuple = z.ZodTuple, R extends z.ZodType = z.ZodType> {
  args: A;
  result: R;
}

export function call<A extends z.ZodTuple, R extends z.ZodType>(args: A, result: R): CallSpec<A, R> {
  return { args, result };
}

export type CallMap = Record<string, CallSpec>;
export type EventMap = Record<string, z.ZodType>;

/** The promise-returning function type of every call in a map. */
export type CallsOf<M extends CallMap> = {
  [K in keyof M]: (...args: z.infer<M[K]['args']>) => Promise<z.infer<M[K]['result']>>;
};

export type PayloadsOf<E extends EventMap> = { [K in keyof E]: z.infer<E[K]> };

/**
 * What crosses the wire for a failed call: a message fit to show the user and an optional machine code
 * (a service error code such as 1005, or a host code such as "invalid-arguments"). Never a stack or a
 * secret.
 */
export interface BridgeFailure {
  message: string;
  code?: string | number;
}

/** Every host answers a call with this envelope; the renderer's bridge unwraps it or throws. */
export type BridgeOutcome<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeFailure };

export const bridgeFailureSchema = z.object({
  message: z.string(),
  code: z.union([z.string(), z.number()]).optional(),
});

export const bridgeOutcomeSchema = z.union([
  // A call returning nothing answers `{ "ok": true }` over HTTP (JSON drops an undefined value): still a result.
  z
    .object({ ok: z.literal(true), value: z.unknown().optional() })
    .transform((o) => ({ ok: o.ok, value: o.value as unknown })),
  z.object({ ok: z.literal(false), error: bridgeFailureSchema }),
]);

/** The desktop app's IPC channel for a dropped file's path (sent by the preload only, never by the page). */
export const IMPORT_DROPPED_CHANNEL = 'studio:import-dropped';
/** The same for a spreadsheet the user picked for a batch. */
export const IMPORT_SHEET_CHANNEL = 'studio:import-sheet';

/**
 * Where the web host serves the bridge: one POST per call (body: the argument array), events as SSE,
 * and one PUT per dropped local file or picked spreadsheet (body: its bytes).
 */
export const WEB_BRIDGE_PATHS = {
  call: '/bridge/call/',
  events: '/bridge/events',
  importFile: '/bridge/import/',
  importSheet: '/bridge/import-sheet/',
  saved: '/bridge/saved/',
  /** A CSV the host wrote for its page ("Export CSV"), fetched once by its id. */
  exports: '/bridge/exports/',
} as const;
