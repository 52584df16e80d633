import { z } from 'zod';
import {
  analyzeFramesBodySchema,
  analyzeFramesResponseSchema,
  audioInfoQuerySchema,
  audioRecordSchema,
  avatarCreateBodySchema,
  avatarCreateItemSchema,
  avatarDetailItemSchema,
  avatarDetailQuerySchema,
  avatarListItemSchema,
  avatarListQuerySchema,
  avatarVideoBodySchema,
  aiModelListQuerySchema,
  aiModelSchema,
  backgroundChangeBodySchema,
  backgroundInfoQuerySchema,
  characterSwapBodySchema,
  characterSwapRecordSchema,
  detectFacesBodySchema,
  detectFacesResponseSchema,
  getTokenBodySchema,
  getTokenResponseSchema,
  imageRecordSchema,
  lipSyncBodySchema,
  liveCloseBodySchema,
  liveCreateBodySchema,
  liveSessionSchema,
  liveUpdateBodySchema,
  talkingAvatarBodySchema,
  talkingAvatarDataSchema,
  ttsCreateBodySchema,
  videoInfoDataSchema,
  videoInfoQuerySchema,
  videoRecordSchema,
  quotaInfoQuerySchema,
  quotaInfoSchema,
  voiceCloneBodySchema,
  voiceListQuerySchema,
  voiceSchema,
  type EndpointName,
} from '../../common/api';
import { tolerantList, tolerantRecord } from './tolerant';

/**
 * The typed view of each endpoint for the client: the request schema and the schema of what a caller
 * gets back (the envelope's `data` for business operations, the whole answer for the two face
 * endpoints). Paths, methods and envelopes come from ENDPOINTS in electron/common/api. Lists and
 * records are read tolerantly (tolerant.ts): clients of the real service meet more shapes than the
 * document shows.
 */
export const endpointTypes = {
  getToken: { request: getTokenBodySchema, result: getTokenResponseSchema },
  detectFaces: { request: detectFacesBodySchema, result: detectFacesResponseSchema },
  analyzeFrames: { request: analyzeFramesBodySchema, result: analyzeFramesResponseSchema },
  liveCreate: { request: liveCreateBodySchema, result: tolerantRecord(liveSessionSchema) },
  liveUpdate: { request: liveUpdateBodySchema, result: z.undefined() },
  liveClose: { request: liveCloseBodySchema, result: z.undefined() },
  aiModelList: { request: aiModelListQuerySchema, result: tolerantList(aiModelSchema) },
  voiceList: { request: voiceListQuerySchema, result: tolerantList(voiceSchema) },
  audioCreate: { request: ttsCreateBodySchema, result: tolerantRecord(audioRecordSchema) },
  audioClone: { request: voiceCloneBodySchema, result: tolerantRecord(audioRecordSchema) },
  audioInfo: { request: audioInfoQuerySchema, result: tolerantRecord(audioRecordSchema) },
  lipSync: { request: lipSyncBodySchema, result: tolerantRecord(videoRecordSchema) },
  videoInfo: { request: videoInfoQuerySchema, result: tolerantRecord(videoInfoDataSchema) },
  avatarList: { request: avatarListQuerySchema, result: tolerantList(avatarListItemSchema) },
  avatarDetail: { request: avatarDetailQuerySchema, result: tolerantList(avatarDetailItemSchema) },
  avatarCreate: { request: avatarCreateBodySchema, result: tolerantList(avatarCreateItemSchema) },
  avatarVideoCreate: { request: avatarVideoBodySchema, result: tolerantRecord(videoRecordSchema) },
  talkingAvatarCreate: { request: talkingAvatarBodySchema, result: tolerantRecord(talkingAvatarDataSchema) },
  characterSwapCreate: { request: characterSwapBodySchema, result: tolerantRecord(characterSwapRecordSchema) },
  backgroundChangeCreate: { request: backgroundChangeBodySchema, result: tolerantRecord(imageRecordSchema) },
  backgroundChangeInfo: { request: backgroundInfoQuerySchema, result: tolerantRecord(imageRecordSchema) },
  quotaInfo: { request: quotaInfoQuerySchema, result: tolerantRecord(quotaInfoSchema) },
} as const satisfies Record<EndpointName, { request: z.ZodType; result: z.ZodType }>;

export type EndpointTypes = typeof endpointTypes;
export type RequestFor<N extends EndpointName> = z.input<EndpointTypes[N]['request']>;
export type ResultFor<N extends EndpointName> = z.infer<EndpointTypes[N]['result']>;
