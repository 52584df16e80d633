import { z } from 'zod';
import { envelope, httpUrl, int, record, recordStatusSchema } from './common';

/** Deprecated and no longer available: kept so clients can recognise the shape and the refusal. */
export const BACKGROUND_CHANGE_DEPRECATED = true;

const size = (field: string) =>
  z.string({ error: `${field} must be a string` }).regex(/^\d+x\d+$/, { error: `${field} must have the form <w>x<h>` });
const coord = (field: string) =>
  z.number({ error: `${field} must be an integer` }).int({ error: `${field} must be an integer` });

export const backgroundChangeBodySchema = z.object({
  origin_img: httpUrl('origin_img'),
  modify_origin_img_size: size('modify_origin_img_size'),
  overlay_origin_x: coord('overlay_origin_x'),
  overlay_origin_y: coord('overlay_origin_y'),
  canvas_size: size('canvas_size'),
  webhookUrl: z.string({ error: 'webhookUrl must be a string' }),
  color_code: z
    .string()
    .regex(/^#?[0-9a-fA-F]{3,8}$/, { error: 'color_code must be a hex color' })
    .optional(),
  template_url: httpUrl('template_url').optional(),
  modify_template_size: size('modify_template_size').optional(),
  overlay_template_x: coord('overlay_template_x').optional(),
  overlay_template_y: coord('overlay_template_y').optional(),
  removeBg: z.boolean().optional(),
});
export type BackgroundChangeBody = z.infer<typeof backgroundChangeBodySchema>;

export const imageRecordSchema = record({
  _id: z.string(),
  create_time: int().optional(),
  uid: int().optional(),
  image_id: z.string().optional(),
  image_status: recordStatusSchema,
  image_sub_status: z.unknown().optional(),
  deduction_credit: z.number().optional(),
  image: z.string().optional(),
  external_img: z.string().optional(),
});
export const backgroundChangeResponseSchema = envelope(imageRecordSchema);

export const backgroundInfoQuerySchema = z.object({
  image_model_id: z.string({ error: 'image_model_id is required' }).min(1, { error: 'image_model_id cannot be empty' }),
});
export const backgroundInfoResponseSchema = envelope(imageRecordSchema);
