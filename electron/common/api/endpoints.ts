import type { z } from 'zod';
import { getTokenBodySchema, getTokenResponseSchema } from './auth';
import {
  avatarCreateBodySchema,
  avatarCreateResponseSchema,
  avatarDetailQuerySchema,
  avatarDetailResponseSchema,
  avatarListQuerySchema,
  avatarListResponseSchema,
} from './avatar';
import {
  backgroundChangeBodySchema,
  backgroundChangeResponseSchema,
  backgroundInfoQuerySchema,
  backgroundInfoResponseSchema,
} from './background';
import { characterSwapBodySchema, characterSwapResponseSchema } from './character-swap';
import {
  analyzeFramesBodySchema,
  analyzeFramesResponseSchema,
  detectFacesBodySchema,
  detectFacesResponseSchema,
} from './faces';
import { quotaInfoQuerySchema, quotaInfoResponseSchema } from './quota';
import {
  liveCloseBodySchema,
  liveCloseResponseSchema,
  liveCreateBodySchema,
  liveCreateResponseSchema,
  liveUpdateBodySchema,
  liveUpdateResponseSchema,
} from './live';
import { aiModelListQuerySchema, aiModelListResponseSchema } from './models';
import { API_PATHS, type ApiPathName } from './paths';
import {
  avatarVideoBodySchema,
  avatarVideoResponseSchema,
  lipSyncBodySchema,
  lipSyncResponseSchema,
  talkingAvatarBodySchema,
  talkingAvatarResponseSchema,
  videoInfoQuerySchema,
  videoInfoResponseSchema,
} from './video';
import {
  audioCloneResponseSchema,
  audioCreateResponseSchema,
  audioInfoQuerySchema,
  audioInfoResponseSchema,
  ttsCreateBodySchema,
  voiceCloneBodySchema,
  voiceListQuerySchema,
  voiceListResponseSchema,
} from './voice';

export interface EndpointSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  /** Where the request's parameters travel. */
  input: 'body' | 'query';
  request: Req;
  response: Res;
  /** False only for getToken. */
  authenticated: boolean;
  /** Face detection and analyze frames answer with their own envelopes. */
  envelope: 'business' | 'face-detection' | 'analyze-frames';
  /**
   * Whether the operation makes something on the service (usually paid). The service has no
   * idempotency key, so such a request is never sent again after an answer that proves nothing.
   */
  creates: boolean;
}

/** Every POST must say whether it creates work: there is no default to forget. */
const post = <Req extends z.ZodType, Res extends z.ZodType>(
  path: string,
  request: Req,
  response: Res,
  extra: Pick<EndpointSpec, 'creates'> & Partial<Pick<EndpointSpec, 'authenticated' | 'envelope'>>,
): EndpointSpec<Req, Res> => ({
  method: 'POST',
  path,
  input: 'body',
  request,
  response,
  authenticated: true,
  envelope: 'business',
  ...extra,
});
/** Reads only: the interface's GETs never create anything. */
const get = <Req extends z.ZodType, Res extends z.ZodType>(
  path: string,
  request: Req,
  response: Res,
): EndpointSpec<Req, Res> => ({
  method: 'GET',
  path,
  input: 'query',
  request,
  response,
  authenticated: true,
  envelope: 'business',
  creates: false,
});
const CREATES = { creates: true } as const;
const READS = { creates: false } as const;

/** Every operation of the interface: path, method, request schema and response schema. */
export const ENDPOINTS = {
  getToken: post(API_PATHS.getToken, getTokenBodySchema, getTokenResponseSchema, { ...READS, authenticated: false }),
  detectFaces: post(API_PATHS.detectFaces, detectFacesBodySchema, detectFacesResponseSchema, {
    ...READS,
    envelope: 'face-detection',
  }),
  analyzeFrames: post(API_PATHS.analyzeFrames, analyzeFramesBodySchema, analyzeFramesResponseSchema, {
    ...READS,
    envelope: 'analyze-frames',
  }),
  liveCreate: post(API_PATHS.liveCreate, liveCreateBodySchema, liveCreateResponseSchema, CREATES),
  liveUpdate: post(API_PATHS.liveUpdate, liveUpdateBodySchema, liveUpdateResponseSchema, CREATES),
  liveClose: post(API_PATHS.liveClose, liveCloseBodySchema, liveCloseResponseSchema, CREATES),
  aiModelList: get(API_PATHS.aiModelList, aiModelListQuerySchema, aiModelListResponseSchema),
  voiceList: get(API_PATHS.voiceList, voiceListQuerySchema, voiceListResponseSchema),
  audioCreate: post(API_PATHS.audioCreate, ttsCreateBodySchema, audioCreateResponseSchema, CREATES),
  audioClone: post(API_PATHS.audioClone, voiceCloneBodySchema, audioCloneResponseSchema, CREATES),
  audioInfo: get(API_PATHS.audioInfo, audioInfoQuerySchema, audioInfoResponseSchema),
  lipSync: post(API_PATHS.lipSync, lipSyncBodySchema, lipSyncResponseSchema, CREATES),
  videoInfo: get(API_PATHS.videoInfo, videoInfoQuerySchema, videoInfoResponseSchema),
  avatarList: get(API_PATHS.avatarList, avatarListQuerySchema, avatarListResponseSchema),
  avatarDetail: get(API_PATHS.avatarDetail, avatarDetailQuerySchema, avatarDetailResponseSchema),
  avatarCreate: post(API_PATHS.avatarCreate, avatarCreateBodySchema, avatarCreateResponseSchema, CREATES),
  avatarVideoCreate: post(API_PATHS.avatarVideoCreate, avatarVideoBodySchema, avatarVideoResponseSchema, CREATES),
  talkingAvatarCreate: post(
    API_PATHS.talkingAvatarCreate,
    talkingAvatarBodySchema,
    talkingAvatarResponseSchema,
    CREATES,
  ),
  characterSwapCreate: post(
    API_PATHS.characterSwapCreate,
    characterSwapBodySchema,
    characterSwapResponseSchema,
    CREATES,
  ),
  backgroundChangeCreate: post(
    API_PATHS.backgroundChangeCreate,
    backgroundChangeBodySchema,
    backgroundChangeResponseSchema,
    CREATES,
  ),
  backgroundChangeInfo: get(API_PATHS.backgroundChangeInfo, backgroundInfoQuerySchema, backgroundInfoResponseSchema),
  quotaInfo: get(API_PATHS.quotaInfo, quotaInfoQuerySchema, quotaInfoResponseSchema),
} as const satisfies Record<ApiPathName, EndpointSpec>;

export type EndpointName = keyof typeof ENDPOINTS;
export type RequestOf<N extends EndpointName> = z.input<(typeof ENDPOINTS)[N]['request']>;
export type ResponseOf<N extends EndpointName> = z.infer<(typeof ENDPOINTS)[N]['response']>;

/** A readable description of the first problem zod found, naming the field. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
  const msg = issue.message;
  if (path === '' || msg.includes(path.split(/[.[]/)[0] ?? '')) return msg;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${path} is required`;
  return `${path}: ${msg}`;
}
