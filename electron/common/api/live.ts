import { z } from 'zod';
import { envelope, emptyEnvelopeSchema, record } from './common';

/** Four landmark points `x1,y1:x2,y2:x3,y3:x4,y4` (the `landmarks_str` of face detection). */
export const LANDMARK_OPTS_PATTERN =
  /^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?(\s*:\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?){3}\s*$/;

export const sourceImageSchema = z.object({
  path: z
    .string({ error: 'sourceImage[].path must be a string URL' })
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v), { error: 'sourceImage[].path must be an http(s) URL' }),
  opts: z
    .string({ error: 'sourceImage[].opts must be a string' })
    .regex(LANDMARK_OPTS_PATTERN, { error: 'sourceImage[].opts must have the form x1,y1:x2,y2:x3,y3:x4,y4' }),
});
export type SourceImage = z.infer<typeof sourceImageSchema>;

const sourceImages = z
  .array(sourceImageSchema, { error: 'sourceImage must be an array' })
  .min(1, { error: 'sourceImage cannot be empty' });

export const liveCreateBodySchema = z.object({ sourceImage: sourceImages });
export type LiveCreateBody = z.infer<typeof liveCreateBodySchema>;

export const liveUpdateBodySchema = z.object({
  _id: z.string({ error: '_id must be a string' }).min(1, { error: '_id cannot be empty' }),
  sourceImage: sourceImages,
});
export type LiveUpdateBody = z.infer<typeof liveUpdateBodySchema>;

export const liveCloseBodySchema = z.object({
  _id: z.string({ error: '_id must be a string' }).min(1, { error: '_id cannot be empty' }),
});
export type LiveCloseBody = z.infer<typeof liveCloseBodySchema>;

export const liveSessionSchema = record({
  _id: z.string(),
  faceswap_status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  front_user_id: z.string(),
  algorithm_user_id: z.string(),
  front_rtc_token: z.string(),
  channel_id: z.string(),
  app_id: z.string(),
});
export type LiveSession = z.infer<typeof liveSessionSchema>;

export const liveCreateResponseSchema = envelope(liveSessionSchema);
export const liveUpdateResponseSchema = emptyEnvelopeSchema;
export const liveCloseResponseSchema = emptyEnvelopeSchema;

/** Track settings the document recommends for the real-time client. */
export const LIVE_TRACK_GUIDANCE = {
  audioEncoderPreset: 'music_standard',
  video: { width: 640, height: 480, frameRate: 20, bitrateMin: 5000, bitrateMax: 5000 },
} as const;
