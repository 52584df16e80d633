import { z } from 'zod';
import { httpUrl, int, record } from './common';

export const MAX_NUM_FRAMES = 24;
export const DEFAULT_NUM_FRAMES = 5;
export const DEFAULT_EXPAND_RATIO = 0.3;

export const detectFacesBodySchema = z
  .object({
    url: httpUrl('url').optional(),
    img: z.string({ error: 'img must be a base64 string' }).min(1, { error: 'img cannot be empty' }).optional(),
    single_face: z.boolean({ error: 'single_face must be a boolean' }).optional(),
    return_face_url: z.boolean({ error: 'return_face_url must be a boolean' }).optional(),
    num_frames: int()
      .min(1, { error: 'num_frames must be at least 1' })
      .max(MAX_NUM_FRAMES, { error: `num_frames must be at most ${MAX_NUM_FRAMES}` })
      .optional(),
  })
  .refine((b) => b.url !== undefined || b.img !== undefined, { error: 'either url or img must be provided' });
export type DetectFacesBody = z.infer<typeof detectFacesBodySchema>;

const point = z.tuple([z.number(), z.number()]);
const box = z.array(z.number()).length(4);

/** One frame's faces as parallel arrays (one entry per face). */
export const faceFrameSchema = record({
  landmarks: z.array(z.array(point).length(6)),
  landmarks_str: z.array(z.string().regex(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?(:-?\d+(\.\d+)?,-?\d+(\.\d+)?){3}$/)),
  region: z.array(box),
  removed: z.array(z.array(z.number())).optional(),
  frame_time: z.number().nullable(),
  crop_region: z.array(z.array(z.number())).nullable().optional(),
  crop_landmarks: z.array(z.string()).nullable().optional(),
  face_urls: z.array(z.string()).nullable().optional(),
});
export type FaceFrame = z.infer<typeof faceFrameSchema>;

export const detectFacesResponseSchema = record({
  error_code: z.union([z.literal(0), z.literal(1)]),
  error_msg: z.string(),
  faces_obj: z.record(z.string().regex(/^\d+$/), faceFrameSchema).optional(),
});
export type DetectFacesResponse = z.infer<typeof detectFacesResponseSchema>;

/** The messages the document lists for face detection failures (error_code 1). */
export const FACE_DETECTION_MESSAGES = {
  missingInput: 'Either url or img must be provided',
  malformedUrl: 'Malformed URL',
  downloadFailed: 'Failed to download media',
  noFaces: 'No faces detected',
  processingFailed: 'Failed to process media',
  typeDetectionFailed: 'Failed to detect media type',
} as const;

export const analyzeFramesBodySchema = z
  .object({
    frame_urls: z
      .array(httpUrl('frame_urls[]'), { error: 'frame_urls is required and must not be empty' })
      .min(1, { error: 'frame_urls is required and must not be empty' }),
    timestamps: z.array(z.number({ error: 'timestamps must be numbers' })).optional(),
    expand_ratio: z
      .number({ error: 'expand_ratio must be a number' })
      .min(0, { error: 'expand_ratio must be between 0 and 1' })
      .max(1, { error: 'expand_ratio must be between 0 and 1' })
      .optional(),
  })
  .refine((b) => b.timestamps === undefined || b.timestamps.length === b.frame_urls.length, {
    error: 'timestamps must have one entry per frame_urls item',
    path: ['timestamps'],
  });
export type AnalyzeFramesBody = z.infer<typeof analyzeFramesBodySchema>;

export const appearanceSchema = record({ timestamp: z.number(), frame_idx: int(), bbox: z.array(z.number()) });

export const personSchema = record({
  person_id: z.string().regex(/^person_\d+$/),
  index: int(),
  face_url: z.string(),
  bbox: z.array(z.number()).length(4),
  confidence: z.number().min(0).max(1),
  appearances: z.array(appearanceSchema),
  first_seen: z.number(),
  last_seen: z.number(),
});
export type Person = z.infer<typeof personSchema>;

export const analyzeFramesResponseSchema = z.union([
  record({ success: z.literal(true), frame_count: int(), persons: z.array(personSchema) }),
  record({ success: z.literal(false), error: z.string() }),
]);
export type AnalyzeFramesResponse = z.infer<typeof analyzeFramesResponseSchema>;

export const ANALYZE_FRAMES_MESSAGES = {
  missingFrames: 'frame_urls is required and must not be empty',
  downloadFailed: 'Failed to download image from URL',
} as const;
