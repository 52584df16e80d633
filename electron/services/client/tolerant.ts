import { z } from 'zod';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The list inside a list answer, whichever shape the service used: a plain list (the interface
 * document), `{ result: [...] }` (what the official demo reads for avatars), `{ result, count, page,
 * size }` (the newer voice endpoints), or one record on its own (`avatar/create` answering one object).
 * Anything else is passed on unchanged so the schema names what is wrong.
 */
export function unwrapList(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (isObject(value)) {
    if (Array.isArray(value.result)) return value.result;
    if ('_id' in value || 'avatar_id' in value || 'voice_id' in value) return [value];
  }
  return value;
}

/** A record answered as itself or as a one-item list. */
export function unwrapRecord(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 ? value[0] : value;
}

/** `z.array(item)` that reads every list shape above. */
export const tolerantList = <T extends z.ZodType>(item: T) => z.preprocess(unwrapList, z.array(item));

/** A record schema that also reads a one-item list. */
export const tolerantRecord = <T extends z.ZodType>(record: T) => z.preprocess(unwrapRecord, record);
