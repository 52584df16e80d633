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
