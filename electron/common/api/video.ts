import { z } from 'zod';
import { envelope, httpUrl, int, optionalWebhook, record, recordStatusSchema } from './common';

export const MAX_OUTPUT_SIDE = 3840;
export const LIP_SYNC_LIMITS = { maxSeconds: 60, maxBytes: 300 * 1024 * 1024, maxFps: 60, recommendedFps: 25 } as const;

export const lipSyncBodySchema = z.object({
  video_url: httpUrl('video_url'),
  audio_url: httpUrl('audio_url'),
  webhookUrl: optionalWebhook('webhookUrl'),
});
export type LipSyncBody = z.infer<typeof lipSyncBodySchema>;

/**
 * Video record (lip sync, avatar video, talking avatar). Only `_id` and `video_status` are in every
 * variant; `video` is an empty string until the status is 3.
 */
export const videoRecordSchema = record({
  _id: z.string(),
  create_time: int().optional(),
  uid: int().optional(),
  video_id: z.string().optional(),
  video_status: recordStatusSchema,
  video: z.string().optional(),
  external_video: z.string().optional(),
  video_lock_duration: z.number().optional(),
  deduction_lock_duration: z.number().optional(),
  deduction_duration: z.number().optional(),
  task_id: z.string().optional(),
  input_audio: z.string().optional(),
  target_video: z.string().optional(),
  lipsync: z.boolean().optional(),
  webhookUrl: z.string().optional(),
  source_data: z.looseObject({}).optional(),
  ratio: z.string().optional(),
  background: z.string().optional(),
  offset_x: z.union([z.string(), z.number()]).optional(),
  offset_y: z.union([z.string(), z.number()]).optional(),
  scale: z.union([z.string(), z.number()]).optional(),
});
export type VideoRecord = z.infer<typeof videoRecordSchema>;

export const lipSyncResponseSchema = envelope(videoRecordSchema);

export const videoInfoQuerySchema = z.object({
  video_model_id: z.string({ error: 'video_model_id is required' }).min(1, { error: 'video_model_id cannot be empty' }),
});
export type VideoInfoQuery = z.infer<typeof videoInfoQuerySchema>;

/** Video info answers with a video record or with the character swap info fields. */
export const videoInfoDataSchema = videoRecordSchema.extend({
  team_id: z.string().optional(),
  update_time: int().optional(),
  video_duration: z.number().optional(),
  file_name: z.string().optional(),
  image_url: z.string().optional(),
  video_url: z.string().optional(),
  prompt: z.string().optional(),
  resolution: z.string().optional(),
  deduction_credit: z.number().optional(),
  faceswap_fail_reason: z.string().optional(),
});
export type VideoInfoData = z.infer<typeof videoInfoDataSchema>;
export const videoInfoResponseSchema = envelope(videoInfoDataSchema);

const side = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int({ error: `${field} must be a whole number of pixels` })
    .min(16, { error: `${field} must be at least 16` })
    .max(MAX_OUTPUT_SIDE, { error: `${field} must be at most ${MAX_OUTPUT_SIDE}` });

const unitScale = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0, { error: `${field} must be between 0 and 1` })
    .max(1, { error: `${field} must be between 0 and 1` });

const pixels = (field: string) => z.number({ error: `${field} must be a number` }).finite();

export const avatarVideoElementSchema = z.object({
  url: z.string({ error: 'elements[].url must be a string' }).optional(),
  scale_x: unitScale('elements[].scale_x').optional(),
  scale_y: unitScale('elements[].scale_y').optional(),
  offset_x: pixels('elements[].offset_x').optional(),
  offset_y: pixels('elements[].offset_y').optional(),
  type: z.enum(['avatar', 'image', 'video', 'audio'], {
    error: 'elements[].type must be avatar, image, video or audio',
  }),
  layer_number: z.number({ error: 'elements[].layer_number must be a number' }).optional(),
  avatar_id: z.string({ error: 'elements[].avatar_id must be a string' }).optional(),
  id: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});
export type AvatarVideoElement = z.infer<typeof avatarVideoElementSchema>;

export const avatarVideoSceneSchema = z
  .object({
    width: side('data[].width'),
    height: side('data[].height'),
    duration: z
      .number({ error: 'data[].duration must be a number of milliseconds' })
      .positive({ error: 'data[].duration must be positive' })
      .optional(),
    voice: z
      .object({
        voice_url: httpUrl('data[].voice.voice_url').optional(),
        voice_id: z.string({ error: 'data[].voice.voice_id must be a string' }).optional(),
      })
      .optional(),
    elements: z.array(avatarVideoElementSchema, { error: 'data[].elements must be an array' }),
    ratio: z.string({ error: 'data[].ratio must be a string' }).optional(),
    background: z.string({ error: 'data[].background must be a string' }).optional(),
    avatarFrom: z.number({ error: 'data[].avatarFrom must be a number' }).optional(),
  })
  .refine((s) => s.voice?.voice_url !== undefined || s.voice?.voice_id !== undefined, {
    error: 'voice_id or voice_url must be provided',
    path: ['voice'],
  });
export type AvatarVideoScene = z.infer<typeof avatarVideoSceneSchema>;

export const avatarVideoBodySchema = z.object({
  data: z
    .array(avatarVideoSceneSchema, { error: 'data must be an array of scenes' })
    .min(1, { error: 'data cannot be empty' }),
  webhookUrl: optionalWebhook('webhookUrl'),
  duration: z
    .number({ error: 'duration must be a number of milliseconds' })
    .positive({ error: 'duration must be positive' })
    .optional(),
});
export type AvatarVideoBody = z.infer<typeof avatarVideoBodySchema>;
export const avatarVideoResponseSchema = envelope(videoRecordSchema);

/** Characters of audio-element input_text per request, by plan. The sandbox acts as a Pro plan. */
export const TALKING_AVATAR_TEXT_LIMITS = { pro: 5000, proMax: 10000, business: 50000 } as const;

export const talkingAvatarElementSchema = z
  .object({
    type: z.enum(['avatar', 'image', 'audio'], { error: 'elements[].type must be avatar, image or audio' }),
    url: z.string({ error: 'elements[].url must be a string' }).optional(),
    scale_x: unitScale('elements[].scale_x').optional(),
    scale_y: unitScale('elements[].scale_y').optional(),
    offset_x: pixels('elements[].offset_x').optional(),
    offset_y: pixels('elements[].offset_y').optional(),
    width: z.number({ error: 'elements[].width must be a number' }).optional(),
    height: z.number({ error: 'elements[].height must be a number' }).optional(),
    avatar_id: z.string({ error: 'elements[].avatar_id must be a string' }).optional(),
    input_text: z.string({ error: 'elements[].input_text must be a string' }).optional(),
    voice_id: z.string({ error: 'elements[].voice_id must be a string' }).optional(),
  })
  .superRefine((e, ctx) => {
    if (e.type !== 'audio') {
      for (const f of ['scale_x', 'scale_y', 'offset_x', 'offset_y'] as const) {
        if (e[f] === undefined)
          ctx.addIssue({ code: 'custom', path: [f], message: `elements[].${f} is required for ${e.type} elements` });
      }
    }
    if (e.type === 'audio') {
      if ((e.input_text === undefined) !== (e.voice_id === undefined) && e.url === undefined) {
        ctx.addIssue({ code: 'custom', path: ['input_text'], message: 'input_text and voice_id must both be present' });
      }
      if (e.url === undefined && e.input_text === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['url'],
          message: 'an audio element needs url or input_text with voice_id',
        });
      }
    }
    if (e.type === 'image' && (e.url === undefined || e.url === '')) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'an image element needs url (a link or a hex color)' });
    }
  });
export type TalkingAvatarElement = z.infer<typeof talkingAvatarElementSchema>;

export const talkingAvatarBodySchema = z
  .object({
    width: side('width'),
    height: side('height'),
    avatar_from: z.union([z.literal(2), z.literal(3)], { error: 'avatar_from must be 2 or 3' }),
    webhookUrl: optionalWebhook('webhookUrl'),
    elements: z
      .array(talkingAvatarElementSchema, { error: 'elements must be an array' })
      .min(1, { error: 'elements cannot be empty' }),
  })
  .superRefine((b, ctx) => {
    const avatars = b.elements.filter((e) => e.type === 'avatar');
    if (avatars.length === 0)
      ctx.addIssue({ code: 'custom', path: ['elements'], message: 'elements must contain an avatar element' });
    if (!b.elements.some((e) => e.type === 'audio'))
      ctx.addIssue({ code: 'custom', path: ['elements'], message: 'elements must contain an audio element' });
    // avatar_from 2 with the avatar's own url as well is what the official demo sends: the url is ignored.
    for (const a of avatars) {
      const ownUrl = a.url !== undefined && a.url !== '';
      if (b.avatar_from === 2 && !a.avatar_id)
        ctx.addIssue({
          code: 'custom',
          path: ['elements'],
          message: 'an official avatar element (avatar_from 2) needs avatar_id',
        });
      if (b.avatar_from === 3 && !ownUrl && !a.avatar_id)
        ctx.addIssue({ code: 'custom', path: ['elements'], message: 'an avatar element needs url or avatar_id' });
    }
  });
export type TalkingAvatarBody = z.infer<typeof talkingAvatarBodySchema>;

export const talkingAvatarDataSchema = record({
  _id: z.string(),
  uid: int().optional(),
  video_id: z.string().optional(),
  task_id: z.string().optional(),
  video_status: recordStatusSchema,
  video: z.string(),
  create_time: int().optional(),
});
export const talkingAvatarResponseSchema = envelope(talkingAvatarDataSchema);
