/**
 * Every path of the service interface, relative to the base URL. Versions are part of the path
 * (model list and character swap are v4, the other business operations v3).
 */
export const API_PATHS = {
  getToken: '/api/open/v3/getToken',
  detectFaces: '/interface/detect-api/detect_faces',
  analyzeFrames: '/faceswap/analyze_frames',
  liveCreate: '/api/open/v3/faceswap/live/create',
  liveUpdate: '/api/open/v3/faceswap/live/update',
  liveClose: '/api/open/v3/faceswap/live/close',
  aiModelList: '/api/open/v4/aigModel/list',
  voiceList: '/api/open/v3/voice/list',
  audioCreate: '/api/open/v3/audio/create',
  audioClone: '/api/open/v3/audio/clone',
  audioInfo: '/api/open/v3/audio/infobymodelid',
  lipSync: '/api/open/v3/content/video/lipsync',
  videoInfo: '/api/open/v3/content/video/infobymodelid',
  avatarList: '/api/open/v3/avatar/list',
  avatarDetail: '/api/open/v3/avatar/detail',
  avatarCreate: '/api/open/v3/avatar/create',
  avatarVideoCreate: '/api/open/v3/avatar/createVideo',
  talkingAvatarCreate: '/api/open/v3/talkingavatar/create',
  characterSwapCreate: '/api/open/v4/characterSwap/create',
  backgroundChangeCreate: '/api/open/v3/content/image/bg/replace',
  backgroundChangeInfo: '/api/open/v3/content/image/infobymodelid',
  quotaInfo: '/api/open/v3/faceswap/quota/info',
} as const;

export type ApiPathName = keyof typeof API_PATHS;
export type ApiPath = (typeof API_PATHS)[ApiPathName];
