import { z } from 'zod';
import { Code } from './error-codes';

/** Status shared by every generation record: 1 queueing, 2 processing, 3 completed, 4 failed. */
export const RecordStatus = { Queueing: 1, Processing: 2, Completed: 3, Failed: 4 } as const;
export const recordStatusSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type RecordStatusValue = z.infer<typeof recordStatusSchema>;

export const STATUS_LABELS: Record<RecordStatusValue, string> = {
  1: 'queueing',
  2: 'processing',
  3: 'completed',
  4: 'failed',
};

export function isFinalStatus(status: number): boolean {
  return status === RecordStatus.Completed || status === RecordStatus.Failed;
}

/** Integer in the JSON sense; the service sends numbers, never numeric strings, in responses. */
export const int = () => z.number().int();

/** Response objects: the document lists fields, the real service may send more; keep them. */
export const record = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);

/** A URL as carried in request bodies: http(s) only. */
export const httpUrl = (field: string) =>
  z
    .string({ error: `${field} must be a string URL` })
    .trim()
    .min(1, { error: `${field} cannot be empty` })
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v), { error: `${field} must be an http(s) URL` });

/** A number that may arrive as a numeric string in a query string. */
export const queryNumber = (field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v === '' ? undefined : v),
    z.number({ error: `${field} must be a number` }).finite({ error: `${field} must be a number` }),
  );

/** The business envelope: code 1000 with data on success, another code and a message on failure. */
export const failureEnvelopeSchema = z.looseObject({
  code: int().refine((c) => c !== Code.Success, { error: 'a failure envelope carries a code other than 1000' }),
  msg: z.string(),
});
export type FailureEnvelope = z.infer<typeof failureEnvelopeSchema>;

export function successEnvelope<D extends z.ZodType>(data: D) {
  return z.looseObject({ code: z.literal(1000), msg: z.string(), data });
}

/** Success without `data` (live update and close). */
export const emptySuccessEnvelopeSchema = z.looseObject({ code: z.literal(1000), msg: z.string() });

/** Either outcome of an operation whose success carries `data`. */
export function envelope<D extends z.ZodType>(data: D) {
  return z.union([successEnvelope(data), failureEnvelopeSchema]);
}

export const emptyEnvelopeSchema = z.union([emptySuccessEnvelopeSchema, failureEnvelopeSchema]);

/** Counts words the way a person would: runs of non-space characters. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/u).length;
}

export const MAX_INPUT_WORDS = 5000;
/** Characters too: one 1,000,000-character "word" passes the word count (the plans limit characters). */
export const MAX_INPUT_CHARACTERS = 50_000;

/** `rate` is a percentage string `<n>%` between 0% and 100%. */
export const rateSchema = z
  .string({ error: 'rate must be a string of the form <n>%' })
  .regex(/^\d{1,3}(\.\d+)?%$/, { error: 'rate must be of the form <n>% (for example 80%)' })
  .refine((v) => Number.parseFloat(v) <= 100, { error: 'rate must be between 0% and 100%' });

export function parseRate(rate: string): number {
  return Number.parseFloat(rate) / 100;
}

export const inputTextSchema = z
  .string({ error: 'input_text must be a string' })
  .refine((v) => v.trim().length > 0, { error: 'input_text cannot be empty' })
  .refine((v) => countWords(v) <= MAX_INPUT_WORDS, { error: `input_text exceeds ${MAX_INPUT_WORDS} words` })
  .refine((v) => v.length <= MAX_INPUT_CHARACTERS, { error: `input_text exceeds ${MAX_INPUT_CHARACTERS} characters` });

export const optionalWebhook = (field: 'webhookUrl' | 'webhookurl') =>
  z
    .string({ error: `${field} must be a string` })
    .refine((v) => v === '' || /^https?:\/\/[^\s/]+/i.test(v), { error: `${field} must be an http(s) URL` })
    .optional();
