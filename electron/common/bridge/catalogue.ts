import { z } from 'zod';
import { aiModelSchema, aiModelTypeSchema, avatarListItemSchema, voiceSchema } from '../api';
import { call } from './contract';

export const AvatarQuery = z.object({
  from: z.union([z.literal(2), z.literal(3)]).optional(),
  type: z.union([z.literal(1), z.literal(2)]).optional(),
  page: z.number().int().min(1).optional(),
  size: z.number().int().min(1).max(1000).optional(),
});
export type AvatarQuery = z.infer<typeof AvatarQuery>;

export const VoiceQuery = z.object({ from: z.union([z.literal(3), z.literal(4)]).optional() });
export type VoiceQuery = z.infer<typeof VoiceQuery>;

export const CatalogueAvatar = avatarListItemSchema;
export type CatalogueAvatar = z.infer<typeof CatalogueAvatar>;
export const CatalogueVoice = voiceSchema;
export type CatalogueVoice = z.infer<typeof CatalogueVoice>;
export const CatalogueModel = aiModelSchema;
export type CatalogueModel = z.infer<typeof CatalogueModel>;

/** Lists from the service, answered through the active connection. */
export const catalogueCalls = {
  'catalogue.avatars': call(z.tuple([AvatarQuery.optional()]), z.array(CatalogueAvatar)),
  'catalogue.voices': call(z.tuple([VoiceQuery.optional()]), z.array(CatalogueVoice)),
  'catalogue.models': call(
    z.tuple([z.array(aiModelTypeSchema).min(1, 'give at least one model type')]),
    z.array(CatalogueModel),
  ),
  /** Forget the cached lists, so the next ask reads them from the service again (a Refresh button). */
  'catalogue.refresh': call(z.tuple([]), z.void()),
};

export const catalogueEvents = {
  /** The active connection's avatars or voices changed (an upload or a clone completed): list them again. */
  'catalogue.changed': z.object({ reason: z.enum(['avatar-upload', 'voice-clone']) }),
};
