import { z } from 'zod';
import { envelope, int, record } from './common';

/** 1501 image to video, 1502 text to video, 2101 character faceswap. */
export const AI_MODEL_TYPES = [1501, 1502, 2101] as const;
export type AiModelType = (typeof AI_MODEL_TYPES)[number];

export const aiModelTypeSchema = z.union([z.literal(1501), z.literal(1502), z.literal(2101)], {
  error: `types[] values must be one of ${AI_MODEL_TYPES.join(', ')}`,
});

/** Query: `types[]=<n>` repeated, at least one. Numeric strings from a query string are accepted. */
export const aiModelListQuerySchema = z.object({
  types: z.preprocess(
    (v) =>
      v === undefined
        ? v
        : (Array.isArray(v) ? v : [v]).map((t) => (typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : t)),
    z
      .array(aiModelTypeSchema, { error: 'types is required (send types[]=<n>)' })
      .min(1, { error: 'types must contain at least one type' }),
  ),
});
export type AiModelListQuery = z.infer<typeof aiModelListQuerySchema>;

/** Serialises the types query the way the service expects it: `types[]=1501&types[]=2101`. */
export function aiModelListSearch(types: readonly AiModelType[]): string {
  return types.map((t) => `${encodeURIComponent('types[]')}=${t}`).join('&');
}

export const resolutionSchema = record({
  label: z.string(),
  value: z.string(),
  width: int(),
  height: int(),
  unit_credit: int(),
});
export type ModelResolution = z.infer<typeof resolutionSchema>;

export const aiModelSchema = record({
  sort: int().optional(),
  group: z.string().optional(),
  provider: z.string().optional(),
  type: int(),
  label: z.string(),
  value: z.string(),
  description: z.string().optional(),
  resolutionList: z.array(resolutionSchema),
  isPro: z.boolean().optional(),
  generate_audio: z.boolean().nullable().optional(),
  durationList: z.array(int()).optional(),
  requiresPay: z.boolean().optional(),
  supportedLastFrame: z.boolean().optional(),
  supportedExtendPrompt: z.boolean().optional(),
  maxImageCount: int().optional(),
  maxCount: int().optional(),
});
export type AiModel = z.infer<typeof aiModelSchema>;

export const aiModelListResponseSchema = envelope(z.array(aiModelSchema));
