import { z } from 'zod';
import {
  analyzeFramesBodySchema, analyzeFramesResponseSchema, audioInfoQuerySchema, audioRecordSchema, avatarCreateBodySchema,
  avatarCreateItemSchema, avatarDetailItemSchema, avatarDetailQuerySchema, avatarListItemSchema, avatarListQuerySchema,
  avatarVideoBodySchema, aiModelListQuerySchema, aiModelSchema, backgroundChangeBodySchema, backgroundInfoQuerySchema,
  characterSwapBodySchema, characterSwapRecordSchema, detectFacesBodySchema, detectFacesResponseSchema, getTokenBodySchema,
  getTokenResponseSchema, imageRecordSchema, lipSyncBodySchema, liveCloseBodySchema, liveCreateBodySchema, liveSessionSchema,
  liveUpdateBodySchema, talkingAvatarBodySchema, talkingAvatarDataSchema, ttsCreateBodySchema, videoInfoDataSchema,
  videoInfoQuerySchema, videoRecordSchema, voiceCloneBodySchema, voiceListQuerySchema, voiceSchema, type EndpointName,
} from '../../common/api';

/**
 * The typed view of each endpoint for the client: the request schema and the schema of what a caller
 * gets back (the envelope's `data` for business operations, the whole answer for the two face
 * endpoints). Paths, methods and envelopes come from ENDPOINTS in electron/common/api.
 */
export const endpointTypes = {
  getToken: { request: getTokenBodySchema, result: getTokenResponseSchema },
  detectFaces: { request: detectFacesBodySchema, result: detectFacesResponseSchema },
  analyzeFrames: { request: analyzeFramesBodySchema, result: analyzeFramesResponseSchema },
  liveCreate: { request: liveCreateBodySchema, result: liveSessionSchema },
  liveUpdate: { request: liveUpdateBodySchema, result: z.undefined() },
  liveClose: { request: liveCloseBodySchema, result: z.undefined() },
  aiModelList: { request: aiModelListQuerySchema, result: z.array(aiModelSchema) },
  voiceList: { request: voiceListQuerySchema, result: z.array(voiceSchema) },
  audioCreate: { request: ttsCreateBodySchema, result: audioRecordSchema },
  audioClone: { request: voiceCloneBodySchema, result: audioRecordSchema },
  audioInfo: { request: audioInfoQuerySchema, result: audioRecordSchema },
  lipSync: { request: lipSyncBodySchema, result: videoRecordSchema },
  videoInfo: { request: videoInfoQuerySchema, result: videoInfoDataSchema },
  avatarList: { request: avatarListQuerySchema, result: z.array(avatarListItemSchema) },
  avatarDetail: { request: avatarDetailQuerySchema, result: z.array(avatarDetailItemSchema) },
  avatarCreate: { request: avatarCreateBodySchema, result: z.array(avatarCreateItemSchema) },
  avatarVideoCreate: { request: avatarVideoBodySchema, result: videoRecordSchema },
  talkingAvatarCreate: { request: talkingAvatarBodySchema, result: talkingAvatarDataSchema },
  characterSwapCreate: { request: characterSwapBodySchema, result: characterSwapRecordSchema },
  backgroundChangeCreate: { request: backgroundChangeBodySchema, result: imageRecordSchema },
  backgroundChangeInfo: { request: backgroundInfoQuerySchema, result: imageRecordSchema },
} as const satisfies Record<EndpointName, { request: z.ZodType; result: z.ZodType }>;

export type EndpointTypes = typeof endpointTypes;
export type RequestFor<N extends EndpointName> = z.input<EndpointTypes[N]['request']>;
export type ResultFor<N extends EndpointName> = z.infer<EndpointTypes[N]['result']>;
