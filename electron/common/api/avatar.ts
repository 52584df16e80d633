import { z } from 'zod';
import { envelope, httpUrl, int, queryNumber, record, recordStatusSchema } from './common';

/** Avatar `from`: 2 official, 3 user uploaded. `type`: 1 real/talking avatar, 2 stream avatar. */
export const AvatarFrom = { Official: 2, User: 3 } as const;
export const AvatarType = { Talking: 1, Stream: 2 } as const;
export const DEFAULT_AVATAR_PAGE_SIZE = 100;

export const avatarListQuerySchema = z.object({
  from: queryNumber('from')
    .refine((v) => v === 2 || v === 3, { error: 'from must be 2 (official) or 3 (user uploaded)' })
    .optional(),
  type: queryNumber('type')
    .refine((v) => v === 1 || v === 2, { error: 'type must be 1 (talking) or 2 (streaming)' })
    .optional(),
  page: queryNumber('page')
    .refine((v) => Number.isInteger(v) && v >= 1, { error: 'page must be a whole number from 1' })
    .optional(),
  size: queryNumber('size')
    .refine((v) => Number.isInteger(v) && v >= 1 && v <= 1000, { error: 'size must be a whole number from 1 to 1000' })
    .optional(),
});
export type AvatarListQuery = z.infer<typeof avatarListQuerySchema>;

export const avatarRecordSchema = record({
  _id: z.string().optional(),
  disabled: z.boolean().optional(),
  uid: int().optional(),
  type: int().optional(),
  from: int().optional(),
  status: recordStatusSchema.optional(),
  sort: int().optional(),
  create_time: int().optional(),
  name: z.string().optional(),
  avatar_id: z.string().optional(),
  url: z.string().optional(),
  modify_url: z.string().optional(),
  gender: z.string().optional(),
  thumbnailUrl: z.string().optional(),
  crop_arr: z.array(z.unknown()).optional(),
});
export type AvatarRecord = z.infer<typeof avatarRecordSchema>;

export const avatarListItemSchema = avatarRecordSchema.extend({ avatar_id: z.string(), url: z.string() });
export const avatarListResponseSchema = envelope(z.array(avatarListItemSchema));

export const avatarDetailQuerySchema = z.object({
  id: z.string({ error: 'id is required' }).min(1, { error: 'id cannot be empty' }),
});
export type AvatarDetailQuery = z.infer<typeof avatarDetailQuerySchema>;
export const avatarDetailItemSchema = avatarRecordSchema.extend({ _id: z.string(), status: recordStatusSchema });
export const avatarDetailResponseSchema = envelope(z.array(avatarDetailItemSchema));

/** The interface: "Unique id; letters and digits only". */
export const avatarIdSchema = z
  .string({ error: 'avatar_id must be a string' })
  .min(1, { error: 'avatar_id cannot be empty' })
  .max(64, { error: 'avatar_id must be at most 64 characters' })
  .regex(/^[A-Za-z0-9]+$/, { error: 'avatar_id may contain letters and digits only' });

export const avatarCreateBodySchema = z.object({
  url: httpUrl('url'),
  avatar_id: avatarIdSchema,
  name: z
    .string({ error: 'name must be a string' })
    .max(100, { error: 'name must be at most 100 characters' })
    .optional(),
  /** A number, or a numeric string in the talking avatar variant. */
  type: z.preprocess(
    (v) => (v === '1' || v === '2' ? Number(v) : v),
    z.union([z.literal(1), z.literal(2)], { error: 'type must be 1 (talking avatar) or 2 (stream avatar)' }),
  ),
  url_from: z.union([z.literal(1), z.literal(2)], { error: 'url_from must be 1 or 2' }).optional(),
});
export type AvatarCreateBody = z.input<typeof avatarCreateBodySchema>;
export const avatarCreateItemSchema = avatarRecordSchema.extend({
  avatar_id: z.string(),
  url: z.string(),
  status: recordStatusSchema,
});
export const avatarCreateResponseSchema = envelope(z.array(avatarCreateItemSchema));
