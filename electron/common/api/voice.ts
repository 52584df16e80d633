import { z } from 'zod';
import {
  envelope,
  httpUrl,
  inputTextSchema,
  int,
  optionalWebhook,
  queryNumber,
  rateSchema,
  record,
  recordStatusSchema,
} from './common';

/** Voice `from`: 3 official, 4 created by the user. */
export const VoiceFrom = { Official: 3, User: 4 } as const;

export const voiceListQuerySchema = z.object({
  from: queryNumber('from')
    .refine((v) => v === 3 || v === 4, { error: 'from must be 3 (official) or 4 (user-created)' })
    .optional(),
});
export type VoiceListQuery = z.infer<typeof voiceListQuerySchema>;

export const voiceSchema = record({
  _id: z.string(),
  create_time: int(),
  uid: int(),
  from: int(),
  voice_id: z.string(),
  gender: z.string(),
  accent: z.string(),
  name: z.string(),
  description: z.string(),
  useCase: z.string(),
  type: int(),
  preview: z.string(),
  __v: int(),
});
export type Voice = z.infer<typeof voiceSchema>;

export const voiceListResponseSchema = envelope(z.array(voiceSchema));

/** TTS: requiredness is not in the document; the sandbox needs input_text and voice_id (rate defaults to 50%). */
export const ttsCreateBodySchema = z.object({
  input_text: inputTextSchema,
  voice_id: z.string({ error: 'voice_id must be a string' }).min(1, { error: 'voice_id cannot be empty' }),
  rate: rateSchema.optional(),
  webhookUrl: optionalWebhook('webhookUrl'),
});
export type TtsCreateBody = z.infer<typeof ttsCreateBodySchema>;

export const voiceCloneBodySchema = z
  .object({
    input_text: inputTextSchema,
    rate: rateSchema,
    voice_url: httpUrl('voice_url').optional(),
    voice_id: z.string({ error: 'voice_id must be a string' }).min(1, { error: 'voice_id cannot be empty' }).optional(),
    webhookUrl: optionalWebhook('webhookUrl'),
  })
  .refine((b) => b.voice_url !== undefined || b.voice_id !== undefined, {
    error: 'voice_id or voice_url must be provided',
    path: ['voice_url'],
  });
export type VoiceCloneBody = z.infer<typeof voiceCloneBodySchema>;

export const audioRecordSchema = record({
  _id: z.string(),
  create_time: int(),
  uid: int(),
  from: int(),
  input_text: z.string(),
  rate: z.string(),
  voice_model_id: z.string(),
  url: z.string(),
  status: recordStatusSchema,
  __v: int().optional(),
});
export type AudioRecord = z.infer<typeof audioRecordSchema>;

export const audioCreateResponseSchema = envelope(audioRecordSchema);
export const audioCloneResponseSchema = envelope(audioRecordSchema);

export const audioInfoQuerySchema = z.object({
  audio_model_id: z.string({ error: 'audio_model_id is required' }).min(1, { error: 'audio_model_id cannot be empty' }),
});
export type AudioInfoQuery = z.infer<typeof audioInfoQuerySchema>;
export const audioInfoResponseSchema = envelope(audioRecordSchema);
